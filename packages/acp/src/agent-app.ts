/**
 * The dsh agent as an ACP agent app: `initialize`, `session/new`, `session/load`, `session/list`,
 * `session/prompt`, `session/set_mode`, `session/close` and the `session/cancel` notification, over the SDK's app API. What is asked
 * about is the host's permission policy (`@dsh/permissions`, mode `ask` by default for `dsh acp`);
 * the app only answers its questions through the editor. It lets the registry find the ACP
 * session of a subagent at any depth through the stored headers, and finishes the calls it
 * announced for questions about nested and subagent calls when their results arrive.
 */
import { agent, type AgentApp } from '@agentclientprotocol/sdk'
import type { AcpAgentDeps } from './acp-contract.ts'
import { finishForeignCall } from './foreign-calls.ts'
import { initialize } from './initialize.ts'
import { answerPrompt } from './prompt-turn.ts'
import { listSessions } from './session-listing.ts'
import { advertiseCommands } from './slash-commands.ts'
import { loadSession, newSession } from './session-open.ts'
import { setSessionMode } from './session-modes.ts'

/** Builds the agent app over `deps.host`. */
export function createAcpAgentApp(deps: AcpAgentDeps): AgentApp {
  deps.registry.parentOf = (sessionId) => {
    try {
      return deps.host.sessions.header(sessionId).parentSession
    } catch {
      // A session file that cannot be read has no known parent: its calls are not asked about (rejected).
      return undefined
    }
  }
  deps.host.ctx.on('tools/result', (execution, outcome) => finishForeignCall(deps.registry, execution, outcome))
  return agent({ name: deps.agentInfo.name })
    .onRequest('initialize', ({ params }) => initialize(deps, params))
    .onRequest('session/new', async ({ params, client }) => {
      const answer = await newSession(deps, params, client)
      // After the answer, so the client knows the session the list belongs to.
      setImmediate(() => void advertiseCommands(deps, client, answer.sessionId))
      return answer
    })
    .onRequest('session/load', async ({ params, client }) => {
      // The replay ends with the session's command list (session-open.ts).
      return loadSession(deps, params, client)
    })
    .onRequest('session/set_mode', ({ params }) => setSessionMode(deps, params))
    .onRequest('session/list', ({ params }) => listSessions(deps.host.sessions, params))
    .onRequest('session/prompt', ({ params, client, signal }) => answerPrompt(deps, deps.registry.require(params.sessionId), params, client, signal))
    .onRequest('session/close', async ({ params }) => {
      // Closing a session that is not open is the client's mistake (resource not found).
      const session = (await deps.registry.close(params.sessionId)) ?? deps.registry.require(params.sessionId)
      await deps.sessionEnd?.(session, 'other')
      return {}
    })
    .onNotification('session/cancel', ({ params }) => {
      // A cancel for a session that is idle (or unknown) has nothing to stop.
      deps.registry.find(params.sessionId)?.running?.controller.abort()
    })
}
