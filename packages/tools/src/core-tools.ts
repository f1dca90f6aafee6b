/** The core tool set in the order the model sees it. */
import type { ProcessLauncher, ToolDefinition } from '@dsh/contracts'
import { createBashTool } from './bash-tool.ts'
import { editTool } from './edit-tool.ts'
import { createGlobTool } from './glob-tool.ts'
import { createGrepTool } from './grep-tool.ts'
import type { SearchToolOptions } from './search-types.ts'
import { LineIndexCache } from './line-index.ts'
import { createReadTool } from './read-tool.ts'
import type { ToolProcesses } from './tool-processes.ts'
import type { FileVersions } from './file-versions.ts'
import { createWriteTool } from './write-tool.ts'

/**
 * read, write, edit, bash, glob, grep (a new array on every call). With `processes`, what bash
 * commands leave running in the background is kept until `processes.endAll()`; without it, it ends
 * with each call. With `launcher`, every bash command is launched through it (the sandbox).
 * `search` configures glob and grep (rg binary, time limit, the secret-path hook). With
 * `versions` (recorded by `createFileVersionsPlugin`), `write` refuses to replace a file changed
 * since the session last read or wrote it. `read` keeps a line index of the files it paged
 * (positions kept between reads of an unchanged file; `line-index.ts`).
 */
export function coreTools(
  options: { readonly processes?: ToolProcesses; readonly launcher?: ProcessLauncher; readonly search?: SearchToolOptions; readonly versions?: FileVersions } = {},
): ToolDefinition[] {
  const read = createReadTool({ lineIndex: new LineIndexCache() })
  return [read, createWriteTool(options.versions === undefined ? {} : { versions: options.versions }), editTool, createBashTool(options), createGlobTool(options.search), createGrepTool(options.search)]
}
