/**
 * `/status`: the status line's details, one per line, plus the session id, the turns so far and
 * the approvals remembered for the session.
 */
import { dataOf } from '@dsh/runtime'
import type { ChatController } from '../chat-controller.ts'
import { statusSnapshot } from './status-snapshot.ts'

/** The lines of `/status`. */
export function statusDetails(controller: ChatController): string[] {
  const status = statusSnapshot(controller)
  const session = controller.agent.session
  const turns = session.events.filter((event) => dataOf(event, 'turn/start') !== undefined).length
  // The guard's session rules survive a resume (they are read back from the log); the agent's own memory does not.
  const permissions = controller.env.permissions
  const remembered = permissions === undefined ? controller.agent.approvals.describe() : permissions.rules(controller.agent).filter((rule) => rule.removable).map((rule) => rule.text)
  const roots = controller.env.additionalRoots?.(controller.agent) ?? []
  return [
    `session:    ${status.sessionId} (${turns} ${turns === 1 ? 'turn' : 'turns'}, ${session.surface.length} visible messages)`,
    `model:      ${status.model} (context window ${controller.model.provider.contextWindow} tokens)`,
    `directory:  ${controller.agent.handle.cwd}`,
    `roots:      ${roots.length === 0 ? 'none' : roots.join(', ')}`,
    `approvals:  ${status.approvals}${remembered.length === 0 ? '' : `; allowed for this session: ${remembered.join(', ')}`}`,
    `context:    ${status.context ?? 'no usage recorded (yet, or since the last compaction)'}`,
    `cache:      ${status.cache === undefined ? 'no cache figures reported (yet)' : `${status.cache.replace(/^cache /, '')} of the prompt tokens were cache hits`}`,
    ...thinkingLine(controller),
    `cost:       ${status.cost ?? (controller.model.prices === undefined ? 'unknown (set model.prices in the config file)' : 'no usage recorded yet')}`,
  ]
}

/** The thinking fields of the next request, for DeepSeek providers (no line for others). */
function thinkingLine(controller: ChatController): string[] {
  const modes = controller.env.thinkingModes?.()
  if (modes === undefined || controller.model.provider.id !== 'deepseek') return []
  return [`thinking:   ${modes.thinking ?? 'not sent (DeepSeek thinks by default)'}; reasoning effort ${modes.reasoningEffort ?? 'not sent (DeepSeek uses high)'} (settings.yaml model.thinking / model.reasoningEffort apply from the next request)`]
}
