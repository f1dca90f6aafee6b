/**
 * The pending window (decision D5). A context this plugin returns from `tools/post-execute` is
 * provisional until the immutable `tools/result` shows it survived every listener. A surviving
 * context is pending until the loop appends it as a durable `user/message` (which confirms it) or
 * the step ends without it (an aborted step discards its contexts), which drops it. Nested Code
 * Mode results move their provisional contexts onto the enclosing execution, which decides.
 *
 * While provisional or pending, a context counts as seen by the model for later passes of the
 * same session, so a second touch in the same step does not inject the same scope again.
 */
import type { SessionEvent, SessionView, ToolExecution, ToolFinalOutcome, UserMessage } from '@dsh/contracts'
import { userMessageOf } from './guards.ts'

interface Entry {
  readonly sessionId: string
  readonly message: UserMessage
  /** Execution that currently decides (provisional); `undefined` once pending. */
  token: symbol | undefined
}

/**
 * The `seq` of the open step's `step/start` event (it identifies the step, like its `{ turn, step }`
 * data, but stays unique across resumes); `undefined` when the latest step marker of `session`
 * is a `step/end` or `turn/end`, or there is none.
 */
export function openStepSeq(session: SessionView): number | undefined {
  const events = session.events
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index]
    if (event?.type === 'step/start') return event.seq
    if (event?.type === 'step/end' || event?.type === 'turn/end') return undefined
  }
  return undefined
}

/** True when the latest step marker of `session` is an open `step/start`. */
export const hasOpenStep = (session: SessionView): boolean => openStepSeq(session) !== undefined

/** Provisional and pending contexts of every session. */
export class PendingWindow {
  #entries: Entry[] = []

  /** Records a context returned for execution `token`. */
  stage(sessionId: string, token: symbol, message: UserMessage): void {
    this.#entries.push({ sessionId, message, token })
  }

  /** Applies the final outcome of `execution`. */
  settle(execution: ToolExecution, outcome: ToolFinalOutcome, session: SessionView | undefined): void {
    const survived = new Set(outcome.additionalContexts.map((message) => message.id))
    const open = session !== undefined && hasOpenStep(session)
    this.#entries = this.#entries.filter((entry) => {
      if (entry.token !== execution.token) return true
      if (!survived.has(entry.message.id)) return false
      if (execution.parent !== undefined) {
        entry.token = execution.parent
        return true
      }
      entry.token = undefined
      return open
    })
  }

  /** Follows the session log: a durable append confirms, a step end drops what is left. */
  observe(session: SessionView, event: SessionEvent): void {
    const sessionId = session.header.id
    if (event.type === 'user/message') {
      const id = userMessageOf(event)?.id
      this.#entries = this.#entries.filter((entry) => !(entry.sessionId === sessionId && entry.message.id === id))
    } else if (event.type === 'step/end' || event.type === 'turn/end') {
      this.#entries = this.#entries.filter((entry) => entry.sessionId !== sessionId)
    }
  }

  /** Provisional and pending contexts of `sessionId`, oldest first. */
  overlays(sessionId: string): UserMessage[] {
    return this.#entries.filter((entry) => entry.sessionId === sessionId).map((entry) => entry.message)
  }

  /** Forgets everything (plugin disposal). */
  clear(): void {
    this.#entries = []
  }
}
