/**
 * The reminder and the objective anchor as durable, append-only messages (the default placement):
 * at each step the guard renders both, and a text that differs from the latest one of its kind on
 * the visible surface joins the step's batch as a user-role message (source `{ plugin:
 * 'maintainer-doc-guard', form: 'instructions', data: { tag } }`), after the messages already in
 * it. So the anchor arrives when the person's instruction changes (or strict mode flips), the
 * documents once and again when they change, and again after a compaction shadowed them; the
 * system prompt and everything before the new messages stay byte-for-byte the same.
 */
import type { AgentHandle, SessionView, UserMessage } from '@dsh/contracts'
import { createUserMessage, eventMessage, messageText } from '@dsh/runtime'
import type { GuardCore } from './guard-core.ts'
import { PLUGIN_NAME } from './notice-delivery.ts'
import { REMINDER_UPDATE_LINE, REMINDER_WITHDRAWN } from './reminder-texts.ts'
import { anchorText, reminderText, safely } from './sections.ts'

/** The two kinds of durable guard message. */
export type DurableTag = 'reminder' | 'anchor'

/** A durable guard message. */
export function durableMessage(tag: DurableTag, text: string): UserMessage {
  return createUserMessage({ text, source: { kind: 'plugin', plugin: PLUGIN_NAME, form: 'instructions', data: { tag } } })
}

/** The text of the latest message of `tag` the model can see, or undefined. */
export function lastDelivered(session: SessionView, tag: DurableTag): string | undefined {
  const { surface } = session
  for (let index = surface.length - 1; index >= 0; index--) {
    const seq = surface[index]
    const event = seq === undefined ? undefined : session.eventBySeq(seq)
    const message = event === undefined ? undefined : eventMessage(event)
    if (message?.role !== 'user' || message.source.kind !== 'plugin' || message.source.plugin !== PLUGIN_NAME || message.source.form !== 'instructions') continue
    const data = message.source.data
    if (typeof data === 'object' && data !== null && 'tag' in data && data.tag === tag) return messageText(message)
  }
  return undefined
}

/** The wording of a reminder that replaces `previous` (the update line first), or of its withdrawal. */
function reminderDelivery(text: string, previous: string | undefined): string | undefined {
  if (text === '') return previous === undefined || previous === REMINDER_WITHDRAWN ? undefined : REMINDER_WITHDRAWN
  const fresh = previous === undefined || previous === REMINDER_WITHDRAWN
  const wording = fresh ? text : `${REMINDER_UPDATE_LINE}\n\n${text}`
  return previous === wording || (!fresh && previous === text) ? undefined : wording
}

/** The messages this step needs after `batch`: the reminder and then the anchor, each only when it changed. */
export function durableDeliveries(core: GuardCore, agent: AgentHandle, batch: readonly UserMessage[]): UserMessage[] {
  const config = core.config()
  const out: UserMessage[] = []
  if (config.placement === 'history') {
    const previous = lastDelivered(agent.session, 'reminder')
    const wording = reminderDelivery(
      safely(core, 'reminder', () => reminderText(core, agent)),
      previous,
    )
    if (wording !== undefined) out.push(durableMessage('reminder', wording))
  }
  if (config.anchor.delivery === 'history') {
    const text = safely(core, 'anchor', () => anchorText(core, agent, batch))
    if (text !== '' && text !== lastDelivered(agent.session, 'anchor')) out.push(durableMessage('anchor', text))
  }
  return out
}
