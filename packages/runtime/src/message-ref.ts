/**
 * One stored copy of a large prompt (issue 22 F17). A prompt is logged twice: when it is queued
 * (`agent/inbox/spliced` inserts it) and when a step enters it (`user/message`). When the entered
 * message is the very object an earlier splice inserted and its text is large, the `user/message`
 * line stores `messageRef: { seq, id }` (the splice's seq and the message id) instead of the
 * message. Loading puts the message back from that splice before anything reads the event, so a
 * loaded session's events are the same as the live ones: only the file is smaller.
 *
 * "Large" is at least {@link MESSAGE_REF_MIN_CHARS} characters: the splice line alone is then
 * longer than the window the session listing reads titles from, so no listing title is lost.
 */
import type { SessionEvent, UserMessage } from '@dsh/contracts'
import { dataOf } from './event-data.ts'
import { TITLE_WINDOW } from './session-scan.ts'

/** Text length from which an entered message refers to its splice instead of repeating itself. */
export const MESSAGE_REF_MIN_CHARS = TITLE_WINDOW

/** What a `user/message` line stores instead of `message`. */
export interface MessageRef {
  /** Seq of the `agent/inbox/spliced` event that inserted the message. */
  readonly seq: number
  /** The message id. */
  readonly id: string
}

const textLength = (message: UserMessage): number => message.content.reduce((sum, block) => sum + block.text.length, 0)

/** Large messages queued by a splice and not yet entered, with their splice's seq (one per session). */
export class MessageRefs {
  readonly #queued = new Map<UserMessage, number>()

  /** Follows one event (appended or loaded): splices queue large messages, entering one forgets it. */
  note(event: SessionEvent): void {
    const splice = dataOf(event, 'agent/inbox/spliced')
    if (splice !== undefined) {
      for (const message of splice.inserted) if (textLength(message) >= MESSAGE_REF_MIN_CHARS) this.#queued.set(message, event.seq)
      return
    }
    const entered = dataOf(event, 'user/message')
    if (entered !== undefined) this.#queued.delete(entered.message)
  }

  /** The event as its line stores it: a `user/message` of a queued large message refers to the splice. */
  stored(event: SessionEvent): SessionEvent {
    const entered = dataOf(event, 'user/message')
    const seq = entered === undefined ? undefined : this.#queued.get(entered.message)
    if (entered === undefined || seq === undefined) return event
    const { message, ...rest } = entered
    const messageRef: MessageRef = { seq, id: message.id }
    return { ...event, data: { ...rest, messageRef } }
  }
}

/** Finds the event of `seq` in `events` (seqs increase). */
function bySeq(events: readonly SessionEvent[], seq: number): SessionEvent | undefined {
  let low = 0
  let high = events.length - 1
  while (low <= high) {
    const middle = (low + high) >>> 1
    const event = events[middle]
    if (event === undefined) return undefined
    if (event.seq === seq) return event
    if (event.seq < seq) low = middle + 1
    else high = middle - 1
  }
  return undefined
}

function refOf(data: unknown): MessageRef | undefined {
  if (typeof data !== 'object' || data === null || 'message' in data || !('messageRef' in data)) return undefined
  const ref: unknown = data.messageRef
  if (typeof ref !== 'object' || ref === null || !('seq' in ref) || !('id' in ref)) return undefined
  const { seq, id } = ref
  return typeof seq === 'number' && typeof id === 'string' ? { seq, id } : undefined
}

/**
 * A loaded `user/message` line with `messageRef`, resolved against the events before it: the event
 * with its `message` back, or a problem (the reference names no earlier splice of that message).
 * Any other line is returned unchanged.
 */
export function resolveMessageRef(event: SessionEvent, earlier: readonly SessionEvent[]): { event: SessionEvent } | { problem: string } {
  if (event.type !== 'user/message') return { event }
  const ref = refOf(event.data)
  if (ref === undefined) return { event }
  const source = bySeq(earlier, ref.seq)
  const splice = source === undefined ? undefined : dataOf(source, 'agent/inbox/spliced')
  const message = splice?.inserted.find((inserted) => inserted.id === ref.id)
  if (message === undefined) return { problem: `data.messageRef: no earlier agent/inbox/spliced event ${ref.seq} inserts message ${ref.id}` }
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- refOf checked that data is an object holding messageRef
  const { messageRef: _ref, ...rest } = event.data as { readonly messageRef: unknown }
  return { event: { ...event, data: { ...rest, message } } }
}
