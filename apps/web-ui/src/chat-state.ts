/**
 * The chat's state as a reducer: the shown items (history, then what the stream adds), the
 * questions waiting for an answer, whether a turn runs, and the session's permission mode. Every item has an id that stays while
 * it is shown, and an item that does not change keeps its object, so the page re-renders only the
 * items that changed (the one answer being streamed). Text deltas extend the answer being
 * streamed, reasoning deltas the reasoning before it; a tool call's end fills in its row. Events
 * numbered up to the history's `seq` are already in the history and are skipped; events that
 * arrive before the first history read are kept until it comes.
 */
import type { ApprovalView, HistoryAnswer, HistoryItem, ModeView, WebEvent } from './api-types.ts'
import type { TodoEntry } from './todo-list.tsx'

type Shown = HistoryItem | { readonly kind: 'error'; readonly text: string } | { readonly kind: 'notice'; readonly text: string }
/** One shown item with its id. */
export type ChatItem = Shown & { readonly id: string }

/** A stream event with its number (absent for events of no numbered stream). */
export interface NumberedEvent {
  readonly seq?: number
  readonly event: WebEvent
}

export interface ChatState {
  readonly items: readonly ChatItem[]
  readonly approvals: readonly ApprovalView[]
  readonly busy: boolean
  /** True while the last item (answer or reasoning) still receives text. */
  readonly streaming: boolean
  /** Number of the last event applied (history included). */
  readonly seq: number
  /** Events that came before the first history read; undefined once it came. */
  readonly early: readonly NumberedEvent[] | undefined
  /** Counter for the ids of items the stream adds. */
  readonly next: number
  /** The session's permission mode and the modes it can switch to (undefined: no mode menu). */
  readonly mode: ModeView | undefined
  /**
   * The checklist the last history read carried (the log's, which a compaction keeps); a
   * `todo_write` row the stream adds after it is newer (pinned-todos.tsx).
   */
  readonly todos: readonly TodoEntry[]
}

export type ChatAction =
  | { readonly kind: 'history'; readonly history: HistoryAnswer; readonly cancelledText: string }
  | { readonly kind: 'events'; readonly events: readonly NumberedEvent[]; readonly cancelledText: string }
  | { readonly kind: 'event'; readonly event: WebEvent; readonly cancelledText: string }
  | { /** The stream (re)connected: events wait for the history read that follows. */ readonly kind: 'reload' }

/** A chat that applies events at once. */
export const emptyChat: ChatState = { items: [], approvals: [], busy: false, streaming: false, seq: 0, early: undefined, next: 0, mode: undefined, todos: [] }

/** A chat whose history is still being read: events wait for it. */
export const loadingChat: ChatState = { ...emptyChat, early: [] }

/** Characters of a running call's output the page keeps (the start of a long output is dropped). */
export const keptOutputChars = 8_192

function outputTail(text: string): string {
  return text.length <= keptOutputChars ? text : text.slice(text.length - keptOutputChars)
}

function add(state: ChatState, item: Shown, streaming: boolean): ChatState {
  return { ...state, items: [...state.items, { ...item, id: `s${state.next}` }], next: state.next + 1, streaming }
}

function extendLast(state: ChatState, kind: 'assistant' | 'reasoning', text: string): ChatState {
  const last = state.items.at(-1)
  if (state.streaming && last?.kind === kind) return { ...state, items: [...state.items.slice(0, -1), { ...last, text: last.text + text }] }
  return add(state, { kind, text }, true)
}

/**
 * The turn number of the latest prompt, from its turn's first step: a prompt sent on this page gets
 * its "Rewind to here" without reading the history again (which would drop streamed reasoning).
 */
function numberPrompt(state: ChatState, turn: number): ChatState {
  const at = state.items.findLastIndex((item) => item.kind === 'user')
  const prompt = state.items[at]
  if (prompt?.kind !== 'user' || prompt.turn !== undefined) return state
  return { ...state, items: state.items.map((item, index) => (index === at ? { ...prompt, turn } : item)) }
}

function withEvent(state: ChatState, event: WebEvent, cancelledText: string): ChatState {
  switch (event.kind) {
    case 'prompt':
      return add(state, { kind: 'user', text: event.text }, false)
    case 'busy':
      return { ...state, busy: event.busy, streaming: event.busy && state.streaming }
    case 'approval':
      return state.approvals.some((item) => item.id === event.approval.id) ? state : { ...state, approvals: [...state.approvals, event.approval] }
    case 'approval-done':
      return { ...state, approvals: state.approvals.filter((item) => item.id !== event.id) }
    case 'error':
      return add(state, { kind: 'error', text: event.message }, false)
    case 'mode':
      return state.mode === undefined ? state : { ...state, mode: { ...state.mode, current: event.mode } }
    case 'progress': {
      const progress = event.event
      switch (progress.type) {
        case 'text':
          return extendLast(state, 'assistant', progress.text)
        case 'reasoning':
          return extendLast(state, 'reasoning', progress.text)
        case 'tool-start':
          return add(state, { kind: 'tool', callId: progress.callId, name: progress.name, arguments: progress.arguments }, false)
        case 'tool-output':
          return { ...state, items: state.items.map((item) => (item.kind === 'tool' && item.callId === progress.callId && item.result === undefined ? { ...item, output: outputTail((item.output ?? '') + progress.text) } : item)) }
        case 'retry': {
          if (!progress.discarded) return state
          // The partial answer (and its reasoning) of the failed attempt leave the page; the next attempt streams anew.
          let kept = state.items
          while (state.streaming && (kept.at(-1)?.kind === 'assistant' || kept.at(-1)?.kind === 'reasoning')) kept = kept.slice(0, -1)
          return add({ ...state, items: kept }, { kind: 'notice', text: `the answer broke off (${progress.detail}); retrying, attempt ${progress.attempt} of ${progress.maxAttempts}` }, false)
        }
        case 'tool-end':
          return { ...state, items: state.items.map((item) => (item.kind === 'tool' && item.callId === progress.callId ? { ...item, result: progress.outcome.content, isError: progress.outcome.isError } : item)) }
        case 'attached':
          return progress.files.length === 0 ? state : add(state, { kind: 'attached', files: progress.files }, false)
        case 'turn-end':
          return progress.reason === 'cancelled' ? add(state, { kind: 'notice', text: cancelledText }, false) : { ...state, streaming: false }
        case 'step-start':
          return { ...numberPrompt(state, progress.turn), streaming: false }
        case 'compacted':
          // Where it happened in the live turn; the items above stay (a history read shows the same note).
          return add(state, { kind: 'compacted', summary: progress.summary }, false)
        default:
          // A kind a newer host sends: nothing to show (the history read shows what it left).
          progress satisfies never
          return state
      }
    }
    default:
      return event satisfies never
  }
}

/**
 * The page's own notes (a failed or cancelled turn) shown after the last prompt: the stored history
 * does not hold them, so a history read that replaces the items keeps them at its end.
 */
function latestNotes(items: readonly ChatItem[]): ChatItem[] {
  const lastPrompt = items.findLastIndex((item) => item.kind === 'user')
  return items.slice(lastPrompt + 1).filter((item) => item.kind === 'error' || item.kind === 'notice')
}

function applyAll(state: ChatState, events: readonly NumberedEvent[], cancelledText: string): ChatState {
  let out = state
  for (const { seq, event } of events) {
    if (seq !== undefined && seq <= out.seq) continue
    out = withEvent(out, event, cancelledText)
    if (seq !== undefined) out = { ...out, seq }
  }
  return out
}

/** The reducer. A `history` action replaces the shown items with the stored ones (plus {@link latestNotes}). */
export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  switch (action.kind) {
    case 'history': {
      const { history } = action
      const items: ChatItem[] = history.items.map((item, index) => ({ ...item, id: `h${index}` }))
      // An item that did not change keeps its object (and so its rendered element).
      const kept = items.map((item, index) => {
        const old = state.items[index]
        return old !== undefined && old.id === item.id && JSON.stringify(old) === JSON.stringify(item) ? old : item
      })
      const base: ChatState = { ...state, items: [...kept, ...latestNotes(state.items)], approvals: history.approvals, busy: history.busy, streaming: false, seq: history.seq, early: undefined, mode: history.mode ?? undefined, todos: history.todos ?? [] }
      return applyAll(base, state.early ?? [], action.cancelledText)
    }
    case 'events':
      if (state.early !== undefined) return { ...state, early: [...state.early, ...action.events] }
      return applyAll(state, action.events, action.cancelledText)
    case 'event':
      return withEvent(state, action.event, action.cancelledText)
    case 'reload':
      return state.early === undefined ? { ...state, early: [] } : state
    default:
      return action satisfies never
  }
}
