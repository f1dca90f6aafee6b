/**
 * What the objective anchor quotes, read from the session log (so it survives compaction and
 * resume). At the top level: the latest user-role message a person wrote (`source.kind === 'user'`;
 * the guard's own notices and other plugin context never qualify), latest wins. In a delegated
 * child: the delegation that started it (its first message with a `delegation` source, or failing
 * that its first non-empty user-role message a person or a delegation produced), adopted once and
 * kept. The scan is incremental: each call reads only events appended since the last one.
 */
import type { SessionEvent, SessionHeader, UserMessage } from '@dsh/contracts'
import { dataOf, messageText } from '@dsh/runtime'

/** True for a delegated child session. */
export function isChildSession(header: SessionHeader): boolean {
  return header.origin === 'subagent' || header.delegationDepth > 0
}

/** Incremental anchor tracker of one session. */
export class AnchorTracker {
  #scanned = 0
  #text: string | undefined
  #adopted = false
  readonly #child: boolean

  constructor(header: SessionHeader) {
    this.#child = isChildSession(header)
  }

  /** The quoted text, or `undefined` before any qualifying message exists. */
  current(events: readonly SessionEvent[]): string | undefined {
    for (; this.#scanned < events.length; this.#scanned++) {
      const event = events[this.#scanned]
      const message = event === undefined ? undefined : dataOf(event, 'user/message')?.message
      if (message === undefined) continue
      const text = messageText(message).trim()
      if (text === '') continue
      if (this.#child) this.#adoptDelegation(message.source.kind, text)
      else if (message.source.kind === 'user') this.#text = text
    }
    return this.#text
  }

  /**
   * The quoted text once `pending` (a step's batch, not yet in the log) is appended, without
   * consuming it: the same rule as {@link current}, applied to the batch after the log.
   */
  currentWith(events: readonly SessionEvent[], pending: readonly UserMessage[]): string | undefined {
    let text = this.current(events)
    let adopted = this.#adopted
    for (const message of pending) {
      const body = messageText(message).trim()
      if (body === '') continue
      if (!this.#child) {
        if (message.source.kind === 'user') text = body
      } else if (!adopted && message.source.kind === 'delegation') {
        text = body
        adopted = true
      } else if (!adopted && message.source.kind === 'user' && text === undefined) text = body
    }
    return text
  }

  #adoptDelegation(kind: UserMessage['source']['kind'], text: string): void {
    if (this.#adopted) return
    if (kind === 'delegation') {
      this.#text = text
      this.#adopted = true
    } else if (kind === 'user' && this.#text === undefined) {
      // Positional fallback for children started without a delegation source; a later delegation still wins.
      this.#text = text
    }
  }
}
