/**
 * The events of the run's subagents in stream-json: an event of another session belongs to the
 * run when that session's `parentSession` chain leads to the run's session. Its line is marked
 * with `subagent` (the subagent's session, its parent and the parent's `subagent` tool call id,
 * read from the delegation message). A subagent's events before its delegation message is
 * recorded wait for it, so every line of a subagent carries the call id.
 */
import type { SessionEvent, SessionView } from '@dsh/contracts'
import type { SubagentMark } from './stream-json-types.ts'

/** An event of a subagent, ready to write. */
export interface SubagentEvent {
  readonly event: SessionEvent
  readonly mark: SubagentMark
}

/** The delegation's parent call id in an event's payload (`agent/inbox/spliced` or `user/message`). */
function delegationCallId(event: SessionEvent): string | undefined {
  const data: unknown = event.data
  if (typeof data !== 'object' || data === null) return undefined
  const messages: unknown[] = 'inserted' in data && Array.isArray(data.inserted) ? data.inserted : 'message' in data ? [data.message] : []
  for (const message of messages) {
    if (typeof message !== 'object' || message === null || !('source' in message)) continue
    const source: unknown = message.source
    if (typeof source === 'object' && source !== null && 'kind' in source && source.kind === 'delegation' && 'parentCallId' in source && typeof source.parentCallId === 'string') return source.parentCallId
  }
  return undefined
}

/** Tracks the subagents of the session `rootId`. */
export class SubagentLines {
  readonly #rootId: string
  /** Subagent sessions of the run with their marks (undefined: the delegation is not recorded yet). */
  readonly #known = new Map<string, SubagentMark | undefined>()
  readonly #waiting = new Map<string, SessionEvent[]>()

  constructor(rootId: string) {
    this.#rootId = rootId
  }

  /** The lines an event of `view` (not the run's own session) adds now: none, its own, or those that waited for it. */
  accept(view: SessionView, event: SessionEvent): SubagentEvent[] {
    const { id, parentSession, delegationDepth } = view.header
    if (parentSession === undefined || (parentSession !== this.#rootId && !this.#known.has(parentSession))) return []
    let mark = this.#known.get(id)
    if (mark === undefined) {
      const callId = delegationCallId(event)
      if (callId === undefined) {
        this.#known.set(id, undefined)
        this.#waiting.set(id, [...(this.#waiting.get(id) ?? []), event])
        return []
      }
      mark = { session_id: id, parent_session_id: parentSession, parent_tool_use_id: callId, depth: delegationDepth }
      this.#known.set(id, mark)
    }
    const earlier = this.#waiting.get(id) ?? []
    this.#waiting.delete(id)
    const marked = mark
    return [...earlier, event].map((waited) => ({ event: waited, mark: marked }))
  }
}
