/**
 * Pure projection of the visible surface to model history. No framing is added: each message's
 * content reaches the model verbatim.
 */
import type { Message, SessionEvent, SessionView } from '@dsh/contracts'
import { dataOf } from './event-data.ts'

/** The message an event carries, when it is a surface event. */
export function eventMessage(event: SessionEvent): Message | undefined {
  return (dataOf(event, 'user/message') ?? dataOf(event, 'assistant/message') ?? dataOf(event, 'tool/result'))?.message
}

/** Model history: the messages of the visible surface, in order. */
export function deriveMessages(session: SessionView): Message[] {
  const messages: Message[] = []
  const { surface } = session
  for (let index = 0; index < surface.length; index++) {
    const seq = surface[index]
    const event = seq === undefined ? undefined : session.eventBySeq(seq)
    const message = event === undefined ? undefined : eventMessage(event)
    if (message !== undefined) messages.push(message)
  }
  return messages
}
