/** Public surface of the ACP front end. */
export type { AcpAgentDeps, AcpMcpServers, AcpMode, AcpModes, SessionPlaceInfo, SessionServers } from './acp-contract.ts'
export { createAcpAgentApp } from './agent-app.ts'
export { askThroughClient, permissionOptions } from './permission-bridge.ts'
export { promptText } from './prompt-text.ts'
export { AcpSession, AcpSessionRegistry } from './session-registry.ts'
export { serveStdio, type StdioServer } from './stdio-server.ts'
export { presentTool, type ToolPresentation } from './tool-presentation.ts'
