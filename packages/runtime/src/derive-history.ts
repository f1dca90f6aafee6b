/**
 * Pure projection of the visible surface to model history. No framing is added: each message's
 * content reaches the model verbatim.
 */
import type { CoreSessionEventData, Message, SessionView } from '@dsh/contracts'

/** The message an event carries, when it is a surface event. */
export function eventMessage(type: string, data: unknown): Message | undefined {
  switch (type) {
    case 'user/message':
      return (data as CoreSessionEventData['user/message']).message
    case 'assistant/message':
      return (data as CoreSessionEventData['assistant/message']).message
    case 'tool/result':
      return (data as CoreSessionEventData['tool/result']).message
    default:
      return undefined
  }
}

/** Model history: the messages of the visible surface, in order. */
export function deriveMessages(session: SessionView): Message[] {
  const messages: Message[] = []
  for (const seq of session.surface) {
    const event = session.eventBySeq(seq)
    const message = event === undefined ? undefined : eventMessage(event.type, event.data)
    if (message !== undefined) messages.push(message)
  }
  return messages
}
