/**
 * Delivery of notices through `agent.inject`: a frozen user-role message with a plugin `notice`
 * source (`{ plugin: 'maintainer-doc-guard', form: 'notice', data: { tag } }`) queued for the
 * next step without waking an idle agent. The pre-dispatch verdict cannot carry context, so a
 * reminder meant to land inside the turn travels this way. A failed delivery is counted
 * (`nudgeFailed`) and never turns into a denial.
 */
import type { AgentHandle, UserMessage } from '@dsh/contracts'
import { createUserMessage, errorMessage } from '@dsh/runtime'
import type { Counters } from './counters.ts'

/** Name of the plugin, as it appears in message sources. */
export const PLUGIN_NAME = 'maintainer-doc-guard'

/** What a notice is about. */
export type NoticeTag = 'intent' | 'drift' | 'docs' | 'ledger' | 'content' | 'verify' | 'child' | 'anchor' | 'judge'

/** A notice message. */
export function noticeMessage(tag: NoticeTag, text: string): UserMessage {
  return createUserMessage({ text, source: { kind: 'plugin', plugin: PLUGIN_NAME, form: 'notice', data: { tag } } })
}

/** Options of {@link deliverNotice}. */
export interface Delivery {
  readonly agent: AgentHandle
  readonly tag: NoticeTag
  readonly text: string
  /** Tool whose call triggered it (for the counters). */
  readonly tool: string
  /** Count instead of sending. */
  readonly dryRun: boolean
  readonly counters: Counters
  readonly warn: (line: string) => void
}

/** How a delivery went. */
export type DeliveryResult = 'sent' | 'dry' | 'failed'

/** Injects a notice (or counts it in dry run). Never throws. */
export async function deliverNotice(delivery: Delivery): Promise<DeliveryResult> {
  const { counters } = delivery
  if (delivery.dryRun) {
    counters.add('nudgeWouldSend')
    return 'dry'
  }
  try {
    await delivery.agent.inject(noticeMessage(delivery.tag, delivery.text))
    counters.add('nudged')
    counters.note('lastNudge', { tool: delivery.tool, tag: delivery.tag })
    return 'sent'
  } catch (error) {
    // A notice that cannot be queued is advice lost, not a reason to stop the call.
    counters.add('nudgeFailed')
    delivery.warn(`maintainer-doc-guard: could not deliver the ${delivery.tag} notice: ${errorMessage(error)}`)
    return 'failed'
  }
}
