/**
 * Skills in use across a compaction: which skills the model called (`skill` tool results), or a
 * person invoked with `/name` (a `skills/invoked` event before the prompt that carried the body),
 * whose result or prompt a compaction replaced, so their instructions are no longer visible. Derived from the
 * log alone: the visible compaction checkpoints name the events they replaced (`sourceEventSeqs`,
 * followed through earlier checkpoints they replaced in turn), and this plugin's own in-use
 * messages name what they carried. A skill is dropped when its last invocation (a tool result or
 * an in-use message) is among the replaced events and nothing visible carries it; a rewind, which
 * removes turns without a checkpoint, drops nothing. Most recent first.
 */
import type { MessageSource, SessionEvent, SessionView, UserMessage } from '@dsh/contracts'
import { PLUGIN_NAME } from './delivered.ts'

/** `source.form` of the in-use messages. */
export const IN_USE_FORM = 'snapshot'

/** The event a `/name` prompt that invokes a skill records with the prompt (`data`: {@link SkillInvocation} and `version: 1`). */
export const INVOKED_EVENT = 'skills/invoked'

/** The prompt event recording that a person invoked skill `key` with `args` (expand.ts). */
export const invokedEvent = (key: string, args: string): { readonly type: string; readonly data: unknown } => ({ type: INVOKED_EVENT, data: { version: 1, key, arguments: args } })

/** One skill an in-use message carries, or the model invoked. */
export interface SkillInvocation {
  /** The name it was invoked by. */
  readonly key: string
  /** The `arguments` of the call (`''` when none). */
  readonly arguments: string
}

/** The persisted data of an in-use message. */
interface InUseData {
  readonly version: 1
  readonly inUse: readonly SkillInvocation[]
}

/** The source of an in-use message carrying `skills`. */
export const inUseSource = (skills: readonly SkillInvocation[]): MessageSource => ({ kind: 'plugin', plugin: PLUGIN_NAME, form: IN_USE_FORM, data: { version: 1, inUse: skills } satisfies InUseData })

/** A property of an object value; `undefined` for anything else. */
const field = (value: unknown, key: string): unknown => (typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined)

const isInvocation = (value: unknown): value is SkillInvocation => typeof field(value, 'key') === 'string' && typeof field(value, 'arguments') === 'string'

const isUserMessage = (value: unknown): value is UserMessage => field(value, 'role') === 'user' && typeof field(value, 'source') === 'object' && field(value, 'source') !== null

function userMessage(event: SessionEvent | undefined): UserMessage | undefined {
  if (event?.type !== 'user/message') return undefined
  const message = field(event.data, 'message')
  return isUserMessage(message) ? message : undefined
}

/** The skills an in-use message carries; `undefined` for any other message. */
function carried(message: UserMessage): readonly SkillInvocation[] | undefined {
  const source = message.source
  if (source.kind !== 'plugin' || source.plugin !== PLUGIN_NAME || source.form !== IN_USE_FORM) return undefined
  const list = field(source.data, 'inUse')
  return field(source.data, 'version') === 1 && Array.isArray(list) ? list.filter(isInvocation) : undefined
}

/** Seqs a visible compaction replaced, directly or through an earlier checkpoint it replaced. */
function replacedSeqs(session: SessionView): Set<number> {
  const replaced = new Set<number>()
  const pending: number[] = []
  for (const seq of session.surface) {
    const event = session.eventBySeq(seq)
    if (userMessage(event)?.source.kind === 'compaction') pending.push(...(event?.sourceEventSeqs ?? []))
  }
  for (let seq = pending.pop(); seq !== undefined; seq = pending.pop()) {
    if (replaced.has(seq)) continue
    replaced.add(seq)
    const event = session.eventBySeq(seq)
    if (userMessage(event)?.source.kind === 'compaction') pending.push(...(event?.sourceEventSeqs ?? []))
  }
  return replaced
}

/** The model's argument text as JSON; `undefined` when it does not parse (the pipeline refused such a call). */
function parsedArguments(raw: string): unknown {
  try {
    return JSON.parse(raw)
  } catch {
    // Not JSON: the call never ran, so there is no invocation to carry.
    return undefined
  }
}

/** The `skill` calls of assistant messages by call id. */
function skillCalls(event: SessionEvent, into: Map<string, SkillInvocation>): void {
  const content = field(field(event.data, 'message'), 'content')
  if (!Array.isArray(content)) return
  for (const block of content) {
    const id = field(block, 'callId')
    const raw = field(block, 'arguments')
    if (field(block, 'type') !== 'tool-call' || field(block, 'name') !== 'skill' || typeof id !== 'string' || typeof raw !== 'string') continue
    const args = parsedArguments(raw)
    const key = field(args, 'name')
    const text = field(args, 'arguments')
    if (typeof key === 'string') into.set(id, { key, arguments: typeof text === 'string' ? text : '' })
  }
}

/** The skills whose instructions a compaction took from the model and nothing visible carries, most recent first. */
export function droppedSkills(session: SessionView): SkillInvocation[] {
  const replaced = replacedSeqs(session)
  if (replaced.size === 0) return []
  const visible = new Set(session.surface)
  const calls = new Map<string, SkillInvocation>()
  /** Per key: the latest invocation, and whether it (or anything later) is visible. */
  const latest = new Map<string, { readonly invocation: SkillInvocation; readonly order: number; readonly dropped: boolean }>()
  let order = 0
  const note = (invocation: SkillInvocation, seq: number): void => {
    const dropped = replaced.has(seq)
    order += 1
    if (!dropped && !visible.has(seq)) return
    latest.set(invocation.key, { invocation, order, dropped })
  }
  // Skills a person invoked with `/name`: recorded right before the prompt, carried by it.
  let invoked: SkillInvocation[] = []
  for (const event of session.events) {
    if (event.type === INVOKED_EVENT) {
      if (field(event.data, 'version') === 1 && isInvocation(event.data)) invoked.push({ key: event.data.key, arguments: event.data.arguments })
    } else if (event.type === 'assistant/message') skillCalls(event, calls)
    else if (event.type === 'tool/result') {
      const message = field(event.data, 'message')
      const callId = field(message, 'callId')
      const invocation = typeof callId === 'string' ? calls.get(callId) : undefined
      if (field(message, 'toolName') === 'skill' && field(message, 'isError') === false && invocation !== undefined) note(invocation, event.seq)
    } else {
      const message = userMessage(event)
      if (message?.source.kind === 'user' && invoked.length > 0) {
        for (const invocation of invoked) note(invocation, event.seq)
        invoked = []
      }
      const skills = message === undefined ? undefined : carried(message)
      // Carried most recent first: noted least recent first, so the later note ranks higher.
      for (const invocation of (skills ?? []).toReversed()) note(invocation, event.seq)
    }
  }
  return [...latest.values()].filter((entry) => entry.dropped).toSorted((a, b) => b.order - a.order).map((entry) => entry.invocation)
}
