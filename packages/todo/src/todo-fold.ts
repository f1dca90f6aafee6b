/**
 * The todo list a session's visible history holds, folded from typed data only: the effective
 * list each successful `todo_write` recorded (`todo/list` events, by call id; the call's own
 * arguments where none was recorded), including one a composite tool dispatched (a `run_code`
 * snippet's `tools.todo_write`, call id `<parent>:code:<n>`), which counts where its parent's
 * result is, failed or not (nested calls take effect as they run), the plugin's reminders (`source.data`), and compaction
 * checkpoints, which inherit the list of the nodes they replaced (their `sourceEventSeqs`) without
 * showing it. A rewind takes nodes off the surface like a compaction but leaves no checkpoint
 * message, so what it undid is undone here too. Incremental while the surface only grows.
 */
import type { SessionEvent, SessionView, UserMessage } from '@dsh/contracts'
import { todosOfArguments, todosOfData } from './todo-args.ts'
import { TODO_TOOL } from './todo-tool.ts'
import type { TodoItem, TodoView } from './types.ts'

/** `source.plugin` of the reminder messages. */
export const TODO_PLUGIN = 'todo'
/** The event a successful call records with the list it ran with (after any hook's argument update). */
export const TODO_LIST_EVENT = 'todo/list'

/** What a sub-dispatch's call id holds between its parent's id and its own number (`<parent>:code:<n>`). */
const NESTED_MARK = ':code:'

/** The persisted data of a `todo/list` event and of a reminder's source. */
export interface TodoData {
  readonly version: 1
  readonly todos: readonly TodoItem[]
  /** The call that wrote the list (`todo/list` events only). */
  readonly callId?: string
}

/** `value[key]` of an object value; `undefined` for anything else. */
const get = (value: unknown, key: string): unknown => (typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined)

/** The list a message source holds when it is one of this plugin's reminders. */
function reminderData(source: unknown): readonly TodoItem[] | undefined {
  if (get(source, 'kind') !== 'plugin' || get(source, 'plugin') !== TODO_PLUGIN) return undefined
  const data = get(source, 'data')
  return get(data, 'version') === 1 ? todosOfData({ todos: get(data, 'todos') }) : undefined
}

/** The list of a reminder message of this plugin; `undefined` for any other message. */
export const reminderTodos = (message: Pick<UserMessage, 'source'>): readonly TodoItem[] | undefined => reminderData(message.source)

interface Folded {
  readonly items: readonly TodoItem[]
  readonly shown: boolean
  /** False until a node said anything of the list. */
  readonly found: boolean
}

const NOTHING: Folded = { items: [], shown: true, found: false }

/** The fold of one session (keep one per session; it reads the live view it is given). */
export class TodoFold {
  #generation = -1
  #folded = 0
  #state: Folded = NOTHING
  #eventsSeen = 0
  readonly #effective = new Map<string, readonly TodoItem[]>()
  /** The last list a nested `todo_write` recorded, by the call id of the composite call that dispatched it. */
  readonly #nested = new Map<string, readonly TodoItem[]>()
  readonly #calls = new Map<string, string>()
  readonly #inherited = new Map<number, Folded>()

  /** The list as the visible surface of `session` holds it now. */
  current(session: SessionView): TodoView {
    this.#recorded(session)
    const surface = session.surface
    if (session.replaceGeneration !== this.#generation || surface.length < this.#folded) {
      this.#generation = session.replaceGeneration
      this.#folded = 0
      this.#state = NOTHING
    }
    for (; this.#folded < surface.length; this.#folded++) this.#state = this.#step(session, surface[this.#folded], this.#state)
    return { items: this.#state.items, shown: this.#state.shown }
  }

  /** Takes in the `todo/list` events appended since the last look (a shorter log starts over). */
  #recorded(session: SessionView): void {
    const events = session.events
    if (events.length < this.#eventsSeen) {
      this.#eventsSeen = 0
      this.#effective.clear()
      this.#nested.clear()
    }
    for (; this.#eventsSeen < events.length; this.#eventsSeen++) {
      const event = events[this.#eventsSeen]
      if (event?.type !== TODO_LIST_EVENT) continue
      const callId = get(event.data, 'callId')
      const todos = todosOfData({ todos: get(event.data, 'todos') })
      if (typeof callId !== 'string' || todos === undefined) continue
      this.#effective.set(callId, todos)
      const nested = callId.lastIndexOf(NESTED_MARK)
      if (nested > 0) this.#nested.set(callId.slice(0, nested), todos)
    }
  }

  #step(session: SessionView, seq: number | undefined, state: Folded): Folded {
    const event = seq === undefined ? undefined : session.eventBySeq(seq)
    const message = get(event?.data, 'message')
    if (event === undefined || message === undefined) return state
    switch (event.type) {
      case 'assistant/message': {
        const content = get(message, 'content')
        if (Array.isArray(content)) for (const block of content) if (get(block, 'type') === 'tool-call' && get(block, 'name') === TODO_TOOL) this.#calls.set(String(get(block, 'callId')), String(get(block, 'arguments')))
        return state
      }
      case 'tool/result': {
        const callId = String(get(message, 'callId'))
        if (get(message, 'toolName') !== TODO_TOOL) {
          const nested = this.#nested.get(callId)
          return nested === undefined ? state : { items: nested, shown: true, found: true }
        }
        if (get(message, 'isError') !== false) return state
        const raw = this.#calls.get(callId)
        const items = this.#effective.get(callId) ?? (raw === undefined ? undefined : todosOfArguments(raw))
        return items === undefined ? state : { items, shown: true, found: true }
      }
      case 'user/message': {
        const source = get(message, 'source')
        if (get(source, 'kind') === 'compaction') {
          const inherited = this.#inheritedAt(session, event)
          return inherited.found ? { ...inherited, shown: false } : state
        }
        const items = reminderData(source)
        return items === undefined ? state : { items, shown: true, found: true }
      }
      default:
        return state
    }
  }

  /** What the nodes a checkpoint replaced held (memoised: a checkpoint never changes). */
  #inheritedAt(session: SessionView, event: SessionEvent): Folded {
    const known = this.#inherited.get(event.seq)
    if (known !== undefined) return known
    let state = NOTHING
    for (const seq of event.sourceEventSeqs ?? []) if (seq < event.seq) state = this.#step(session, seq, state)
    this.#inherited.set(event.seq, state)
    return state
  }
}

/** The list `session`'s visible history holds (a one-off fold; plugins keep a {@link TodoFold}). */
export const todoListOf = (session: SessionView): TodoView => new TodoFold().current(session)
