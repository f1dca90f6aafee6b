/**
 * Calls the editor has no card for: the nested calls of a `run_code` snippet and the calls of a
 * subagent (at any depth). They reach the editor only when the permission policy asks about them;
 * then each gets a `tool_call` of its own before the question (so the question names a call the
 * editor knows, and never retitles the snippet's or the delegation's card) and, when its result
 * arrives on the host's `tools/result`, a final `tool_call_update` (`completed` or `failed` with
 * the result text). A subagent's call ids are its own session's, so its ACP id carries that
 * session's id: `<turn>.<step>/<subagent session id>/<call id>` (turn and step of the ACP
 * session's own step that delegated).
 */
import type { ToolExecution, ToolFinalOutcome } from '@dsh/contracts'
import { resultContent } from './prompt-updates.ts'
import type { AcpSession, AcpSessionRegistry, RunningPrompt } from './session-registry.ts'

/** True when `execution` is a top-level call of the ACP session's own agent (announced by its progress). */
export function hasOwnCard(session: AcpSession, execution: ToolExecution): boolean {
  return execution.parent === undefined && execution.agent?.id === session.id
}

/** The ACP tool call id of `execution`, a call made while `running` answers `session`'s prompt. */
export function acpCallId(session: AcpSession, running: RunningPrompt, execution: ToolExecution): string {
  const agentId = execution.agent?.id ?? session.id
  return running.toolCallId(agentId === session.id ? execution.callId : `${agentId}/${execution.callId}`)
}

/** Sends the final update of a foreign call that was announced; other calls are left alone. */
export function finishForeignCall(registry: AcpSessionRegistry, execution: ToolExecution, outcome: ToolFinalOutcome): void {
  const running = registry.owning(execution.agent)?.running
  const toolCallId = running?.announced.get(execution.token)
  if (running === undefined || toolCallId === undefined) return
  running.announced.delete(execution.token)
  running.send({ sessionUpdate: 'tool_call_update', toolCallId, status: outcome.isError ? 'failed' : 'completed', content: resultContent([], outcome.content) })
}
