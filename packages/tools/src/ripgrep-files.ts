/**
 * The file listing through `rg --files` (ignore rules, hidden files, no `.git`, no links followed),
 * for glob: each listed path relative to the search root, filtered by the caller afterwards.
 */
import { filesArgs, displayPath, ripgrepRoot } from './ripgrep-args.ts'
import { runRipgrep, type RipgrepExit } from './ripgrep-process.ts'

/**
 * Lists the files under absolute `root` (only names ending in `nameSuffix` when given); `onFile`
 * gets each file's display path and its path relative to the root (no object per file: a listing
 * can hold tens of thousands) and returns false to stop early.
 */
export async function ripgrepFiles(
  run: { readonly binary: string; readonly cwd: string; readonly deadline: number; readonly signal: AbortSignal; readonly nameSuffix?: string },
  root: string,
  onFile: (display: string, relative: string) => boolean,
): Promise<RipgrepExit> {
  const rgRoot = ripgrepRoot(run.cwd, root)
  return runRipgrep({
    binary: run.binary,
    args: filesArgs([rgRoot.arg], run.nameSuffix),
    cwd: run.cwd,
    deadline: run.deadline,
    signal: run.signal,
    separator: 0,
    onText: (printed) => {
      const display = displayPath(printed)
      const relative = rgRoot.prefix !== '' && printed.startsWith(rgRoot.prefix) ? printed.slice(rgRoot.prefix.length) : display
      return onFile(display, relative)
    },
  })
}
