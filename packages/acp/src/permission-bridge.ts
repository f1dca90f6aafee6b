/**
 * Permission questions through the editor: an `ask` verdict becomes `session/request_permission`
 * with allow-once, allow-always and reject options, sent to the client of the session the call
 * belongs to (a subagent's calls: its parent's). An "allow always" answer carries its scope to
 * the permission policy, which keeps it as a session rule (in the session's log, so it holds across
 * prompts and processes) and asks only about what no rule covers; whatever the policy asks about is
 * asked here, every time (a shell command with no sandbox asks at each call). A question the
 * editor cancels, a call with no running prompt to ask through, or a failed request is a reject;
 * a question ended by cancelling the step is the step's cancel (the call did not run). A call
 * the editor has no card for (a snippet's nested call, a subagent's call) is announced first
 * (`foreign-calls.ts`).
 */
import type { PermissionOption, RequestPermissionResponse, ToolCall } from '@agentclientprotocol/sdk'
import type { ApprovalScope, PermissionDecision, ToolExecution } from '@dsh/contracts'
import { suggestedPrefix, type AskPermission } from '@dsh/runtime'
import type { AcpSessionRegistry } from './session-registry.ts'
import { acpCallId, hasOwnCard } from './foreign-calls.ts'
import { presentTool } from './tool-presentation.ts'

/** The option ids offered, and what each one decides. */
const optionIds = { once: 'allow-once', always: 'allow-always', reject: 'reject' } as const

function scopeOf(execution: ToolExecution): ApprovalScope {
  const command = execution.name === 'bash' && typeof execution.arguments === 'object' && execution.arguments !== null ? Object.getOwnPropertyDescriptor(execution.arguments, 'command')?.value : undefined
  const prefix = typeof command === 'string' ? suggestedPrefix(command) : undefined
  return prefix === undefined ? { kind: 'tool' } : { kind: 'command-prefix', prefix }
}

/** The options of one question (the allow-always label names what it covers). */
export function permissionOptions(execution: ToolExecution): PermissionOption[] {
  const scope = scopeOf(execution)
  const always = scope.kind === 'command-prefix' ? `Always allow "${scope.prefix} …" in this session` : `Always allow ${execution.name} in this session`
  return [
    { optionId: optionIds.once, name: 'Allow once', kind: 'allow_once' },
    { optionId: optionIds.always, name: always, kind: 'allow_always' },
    { optionId: optionIds.reject, name: 'Reject', kind: 'reject_once' },
  ]
}

function decisionOf(response: RequestPermissionResponse, execution: ToolExecution): PermissionDecision {
  const outcome = response.outcome
  if (outcome.outcome === 'cancelled') return { kind: 'reject', note: 'the question was cancelled' }
  if (outcome.optionId === optionIds.once) return { kind: 'allow-once' }
  if (outcome.optionId === optionIds.always) return { kind: 'allow-always', scope: scopeOf(execution) }
  return { kind: 'reject' }
}

/** The `askPermission` of a host whose sessions are ACP sessions of `registry`. */
export function askThroughClient(registry: AcpSessionRegistry): AskPermission {
  return async (execution) => {
    const session = registry.owning(execution.agent)
    const running = session?.running
    if (session === undefined || running === undefined) return { kind: 'reject', note: 'no editor is connected to answer the permission question' }
    const toolCallId = acpCallId(session, running, execution)
    const shown = presentTool(execution.name, JSON.stringify(execution.arguments ?? {}), session.spelling)
    const toolCall: ToolCall = { toolCallId, title: shown.title, kind: shown.kind, locations: shown.locations, rawInput: execution.arguments, status: 'pending' }
    if (!hasOwnCard(session, execution)) {
      running.announced.set(execution.token, toolCallId)
      running.send({ sessionUpdate: 'tool_call', ...toolCall })
    }
    let decision: PermissionDecision
    try {
      await running.flush()
      const response = await running.client.request('session/request_permission', { sessionId: session.id, toolCall, options: permissionOptions(execution) }, { cancellationSignal: execution.signal, stopWaitingOnCancel: true })
      decision = decisionOf(response, execution)
    } catch (error) {
      // The step was cancelled while asking: the pipeline reports the call as cancelled before it ran.
      if (execution.signal.aborted) throw error
      // The client failed the request: the call does not run (its tool_call_update `failed` follows).
      return { kind: 'reject', note: `the permission question failed: ${error instanceof Error ? error.message : String(error)}` }
    }
    if (decision.kind !== 'reject') running.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' })
    return decision
  }
}
