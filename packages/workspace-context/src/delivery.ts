/**
 * Delivery of pre-step messages: folded into the entering batch right after the last claimed
 * message (the direct prompt on a turn's first step), or — when the step is rejected or a first
 * step enters nothing — queued at the front of the next-step inbox, replacing any instruction
 * message of this plugin already queued there instead of accumulating duplicates.
 */
import type { AgentHandle, PreStepDecision, UserMessage } from '@dsh/contracts'
import { isInstructionMessage } from './visible-state.ts'

/** Returns `decision` with `messages` inserted after the last claimed message it enters. */
export function deliverInBatch(decision: PreStepDecision & { kind: 'enter' }, claimed: readonly UserMessage[], messages: readonly UserMessage[]): PreStepDecision {
  if (messages.length === 0) return decision
  const claimedIds = new Set(claimed.map((message) => message.id))
  let at = 0
  decision.messages.forEach((message, index) => {
    if (claimedIds.has(message.id)) at = index + 1
  })
  return { kind: 'enter', messages: [...decision.messages.slice(0, at), ...messages, ...decision.messages.slice(at)] }
}

/** Queues `messages` for a later step, replacing this plugin's queued instruction messages. */
export async function queueForLater(agent: AgentHandle, messages: readonly UserMessage[], plugin: string): Promise<void> {
  if (messages.length === 0) return
  for (const queued of agent.inbox.nextStep.filter((message) => isInstructionMessage(message, plugin))) await agent.inbox.remove(queued.id)
  for (const message of messages.toReversed()) await agent.inbox.prepend('next-step', message)
}
