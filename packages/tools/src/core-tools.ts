/** The core tool set in the order the model sees it. */
import type { ToolDefinition } from '@dsh/contracts'
import { bashTool } from './bash-tool.ts'
import { editTool } from './edit-tool.ts'
import { globTool } from './glob-tool.ts'
import { grepTool } from './grep-tool.ts'
import { readTool } from './read-tool.ts'
import { writeTool } from './write-tool.ts'

/** read, write, edit, bash, glob, grep (a new array on every call). */
export function coreTools(): ToolDefinition[] {
  return [readTool, writeTool, editTool, bashTool, globTool, grepTool]
}
