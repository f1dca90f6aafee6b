/** Public surface of Code Mode. */
export { createRunCodeTool, MAX_TIMEOUT_MS, type RunCodeArgs, type RunCodeOptions } from './run-code-tool.ts'
