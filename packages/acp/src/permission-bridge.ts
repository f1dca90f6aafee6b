/**
 * Permission questions through the editor: an `ask` verdict becomes `session/request_permission`
 * with allow-once, allow-always and reject options, sent to the client of the session the call
 * belongs to (a subagent's calls: its parent's). "Always" for a `bash` call covers its command
 * prefix, or a compound command's part prefixes together, and for a `web_fetch` call its URL's
 * host; the whole tool is offered for a compound command or a fetch only from the second question
 * about that tool in that session (an option of its own), and a compound command whose parts
 * cannot be read offers no "always" the first time (runtime's `alwaysOffers`).
 * An "allow always" answer carries its scope to
 * the permission policy, which keeps it as a session rule (in the session's log, so it holds across
 * prompts and processes) and asks only about what no rule covers; whatever the policy asks about is
 * asked here, every time (a shell command with no sandbox asks at each call). A question the
 * editor cancels, a call with no running prompt to ask through, or a failed request is a reject;
 * a question ended by cancelling the step is the step's cancel (the call did not run). A call
 * the editor has no card for (a snippet's nested call, a subagent's call) is announced first
 * (`foreign-calls.ts`).
 */
import type { PermissionOption, RequestPermissionResponse, ToolCall } from '@agentclientprotocol/sdk'
import type { PermissionDecision, ToolExecution } from '@dsh/contracts'
import { alwaysOffers, scopeLabel, type AlwaysOffers, type AskPermission } from '@dsh/runtime'
import type { AcpSessionRegistry } from './session-registry.ts'
import { acpCallId, hasOwnCard } from './foreign-calls.ts'
import { presentTool } from './tool-presentation.ts'

/** The option ids offered, and what each one decides. */
const optionIds = { once: 'allow-once', always: 'allow-always', alwaysTool: 'allow-always-tool', reject: 'reject' } as const

/** The options of one question (each allow-always label names what it covers); `askedBefore` counts earlier questions about the tool in the session. */
export function permissionOptions(execution: ToolExecution, askedBefore = 0): PermissionOption[] {
  const offers = alwaysOffers(execution, askedBefore)
  return [
    { optionId: optionIds.once, name: 'Allow once', kind: 'allow_once' },
    ...(offers.always === undefined ? [] : [{ optionId: optionIds.always, name: `Always allow ${scopeLabel(offers.always, execution.name)} in this session`, kind: 'allow_always' as const }]),
    ...(offers.alwaysTool ? [{ optionId: optionIds.alwaysTool, name: `Always allow every ${execution.name} call in this session`, kind: 'allow_always' as const }] : []),
    { optionId: optionIds.reject, name: 'Reject', kind: 'reject_once' },
  ]
}

function decisionOf(response: RequestPermissionResponse, offers: AlwaysOffers): PermissionDecision {
  const outcome = response.outcome
  if (outcome.outcome === 'cancelled') return { kind: 'reject', note: 'the question was cancelled' }
  if (outcome.optionId === optionIds.once) return { kind: 'allow-once' }
  if (outcome.optionId === optionIds.always && offers.always !== undefined) return { kind: 'allow-always', scope: offers.always }
  if (outcome.optionId === optionIds.alwaysTool && offers.alwaysTool) return { kind: 'allow-always', scope: { kind: 'tool' } }
  return { kind: 'reject' }
}

/** The `askPermission` of a host whose sessions are ACP sessions of `registry`. */
export function askThroughClient(registry: AcpSessionRegistry): AskPermission {
  /** Questions asked per session and tool (`session\0tool`). */
  const asked = new Map<string, number>()
  return async (execution) => {
    const session = registry.owning(execution.agent)
    const running = session?.running
    if (session === undefined || running === undefined) return { kind: 'reject', note: 'no editor is connected to answer the permission question' }
    const key = `${session.id}\0${execution.name}`
    const askedBefore = asked.get(key) ?? 0
    asked.set(key, askedBefore + 1)
    const offers = alwaysOffers(execution, askedBefore)
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
      const response = await running.client.request('session/request_permission', { sessionId: session.id, toolCall, options: permissionOptions(execution, askedBefore) }, { cancellationSignal: execution.signal, stopWaitingOnCancel: true })
      decision = decisionOf(response, offers)
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
