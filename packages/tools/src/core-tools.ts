/** The core tool set in the order the model sees it. */
import type { ProcessLauncher, ToolDefinition } from '@dsh/contracts'
import { createBashTool } from './bash-tool.ts'
import { editTool } from './edit-tool.ts'
import { globTool } from './glob-tool.ts'
import { grepTool } from './grep-tool.ts'
import { readTool } from './read-tool.ts'
import type { ToolProcesses } from './tool-processes.ts'
import type { FileVersions } from './file-versions.ts'
import { createWriteTool } from './write-tool.ts'

/**
 * read, write, edit, bash, glob, grep (a new array on every call). With `processes`, what bash
 * commands leave running in the background is kept until `processes.endAll()`; without it, it ends
 * with each call. With `launcher`, every bash command is launched through it (the sandbox). With
 * `versions` (recorded by `createFileVersionsPlugin`), `write` refuses to replace a file changed
 * since the session last read or wrote it.
 */
export function coreTools(options: { readonly processes?: ToolProcesses; readonly launcher?: ProcessLauncher; readonly versions?: FileVersions } = {}): ToolDefinition[] {
  return [readTool, createWriteTool(options.versions === undefined ? {} : { versions: options.versions }), editTool, createBashTool(options), globTool, grepTool]
}
