/**
 * `initialize`: protocol version 1 (the only one this agent speaks, whatever the client asks
 * for), `loadSession`, `session/list`, `session/close` and (unless multi-root is disabled) additional
 * directories, prompts of text, resource links and embedded resources (no images or audio: the
 * models dsh drives take text), MCP servers over stdio and (when the composition connects them)
 * http, `session/close`, and no authentication (the model's key comes from
 * the environment). The client's capabilities are kept for the sessions (its `fs` methods).
 */
import { PROTOCOL_VERSION, type InitializeRequest, type InitializeResponse } from '@agentclientprotocol/sdk'
import type { AcpAgentDeps } from './acp-contract.ts'

/** Answers `initialize` and records the client's capabilities. */
export function initialize(deps: AcpAgentDeps, params: InitializeRequest): InitializeResponse {
  deps.registry.capabilities = params.clientCapabilities ?? {}
  return {
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: true,
      promptCapabilities: { image: false, audio: false, embeddedContext: true },
      mcpCapabilities: { http: deps.mcp?.http === true, sse: false },
      // Additional directories only when the host can make them roots (multi-root enabled).
      sessionCapabilities: deps.host.ctx.get('workspaceRoots') === undefined ? { list: {}, close: {} } : { additionalDirectories: {}, list: {}, close: {} },
    },
    agentInfo: { ...deps.agentInfo },
    authMethods: [],
  }
}
