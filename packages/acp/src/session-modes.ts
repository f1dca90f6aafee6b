/**
 * Session modes (ACP "Session Modes"): dsh's permission modes as the editor's mode picker. The
 * `session/new` and `session/load` answers carry the modes a session may switch to and the one in
 * force; `session/set_mode` switches it from the session's next permission decision on (a prompt
 * that is running included), for the rest of the process, as the chat's `/mode` does. A mode the
 * session cannot switch to is an invalid-params error that names the modes it can. The agent never
 * changes a mode by itself, so it sends no `current_mode_update`.
 */
import { RequestError, type SessionModeState, type SetSessionModeRequest, type SetSessionModeResponse } from '@agentclientprotocol/sdk'
import type { AcpAgentDeps } from './acp-contract.ts'

/** The `modes` field of a session answer (nothing when the composition offers no modes). */
export function modeStateOf(deps: AcpAgentDeps, sessionId: string): { modes?: SessionModeState } {
  const modes = deps.modes
  if (modes === undefined) return {}
  return { modes: { currentModeId: modes.current(sessionId), availableModes: modes.available.map((mode) => ({ ...mode })) } }
}

/** Answers `session/set_mode`. */
export function setSessionMode(deps: AcpAgentDeps, params: SetSessionModeRequest): SetSessionModeResponse {
  deps.registry.require(params.sessionId)
  const modes = deps.modes
  if (modes === undefined) throw RequestError.methodNotFound('session/set_mode')
  const names = modes.available.map((mode) => mode.id).join(', ')
  if (!modes.available.some((mode) => mode.id === params.modeId)) throw RequestError.invalidParams({ modeId: params.modeId }, `mode ${params.modeId}: this session can switch to ${names}`)
  const refusal = modes.set(params.sessionId, params.modeId)
  if (refusal !== undefined) throw RequestError.invalidParams({ modeId: params.modeId }, `mode ${params.modeId}: ${refusal}`)
  return {}
}
