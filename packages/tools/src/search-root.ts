/**
 * Resolves and checks the `path` argument of glob and grep: it must exist, and be a directory
 * (glob) or a directory or file (grep). Problems become error results with a hint.
 */
import type { ToolOutput, ToolRunContext } from '@dsh/contracts'
import { errorResult } from './tool-result.ts'

/** A usable search root, or the error result to return. */
export type SearchRoot =
  | { readonly isError: false; readonly path: string; readonly type: 'file' | 'directory' }
  | { readonly isError: true; readonly result: ToolOutput }

/** Resolves `shown` against the cwd and checks what is there. */
export async function resolveSearchRoot(
  run: ToolRunContext,
  shown: string,
  accept: 'directory' | 'file-or-directory',
): Promise<SearchRoot> {
  const target = await run.fs.resolve(shown, { cwd: run.cwd, signal: run.signal })
  const info = await run.fs.stat(target.path, run.signal)
  if (info === undefined) {
    return {
      isError: true,
      result: errorResult(`Not found: ${shown}. Relative paths resolve against ${run.cwd}; omit path to search there.`),
    }
  }
  if (info.type === 'directory') return { isError: false, path: target.path, type: 'directory' }
  if (info.type === 'file' && accept === 'file-or-directory') return { isError: false, path: target.path, type: 'file' }
  const wanted = accept === 'directory' ? 'a directory' : 'a file or directory'
  return { isError: true, result: errorResult(`${shown} is not ${wanted}. Pass ${wanted} as path.`) }
}
