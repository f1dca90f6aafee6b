/** Public surface of subagents. */
export { createSubagentTool, formatChild, type SubagentArgs, type SubagentToolOptions } from './subagent-tool.ts'
export { createChildStarter, type ChildStarterOptions } from './child-starter.ts'
export { delegationMessage, delegationText } from './delegation-message.ts'
export type { ChildRequest, ChildResult, StartChild } from './child-request.ts'
