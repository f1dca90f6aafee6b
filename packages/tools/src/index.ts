/** Public surface of the core tools. */
export { readTool, type ReadArgs } from './read-tool.ts'
export { writeTool, type WriteArgs } from './write-tool.ts'
export { editTool, type EditArgs } from './edit-tool.ts'
export { bashTool, type BashArgs } from './bash-tool.ts'
export { globTool, type GlobArgs } from './glob-tool.ts'
export { grepTool, type GrepArgs } from './grep-tool.ts'
export { coreTools } from './core-tools.ts'
export { toolJsonSchema } from './tool-json-schema.ts'
