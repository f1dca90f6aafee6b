/**
 * The file listing through `rg --files` (ignore rules, hidden files, no `.git`, no links followed),
 * for glob: each listed path relative to the search root, filtered by the caller afterwards.
 */
import { filesArgs, displayPath, ripgrepRoot } from './ripgrep-args.ts'
import { runRipgrep, type RipgrepExit } from './ripgrep-process.ts'

/** A listed file: its display path (relative to the working directory) and its path relative to the root. */
export interface ListedFile {
  readonly display: string
  readonly relative: string
}

/** Lists the files under absolute `root`; `onFile` returns false to stop early. */
export async function ripgrepFiles(
  run: { readonly binary: string; readonly cwd: string; readonly deadline: number; readonly signal: AbortSignal },
  root: string,
  onFile: (file: ListedFile) => boolean,
): Promise<RipgrepExit> {
  const rgRoot = ripgrepRoot(run.cwd, root)
  return runRipgrep({
    binary: run.binary,
    args: filesArgs([rgRoot.arg]),
    cwd: run.cwd,
    deadline: run.deadline,
    signal: run.signal,
    separator: 0,
    onText: (printed) => {
      const display = displayPath(printed)
      const relative = rgRoot.prefix !== '' && printed.startsWith(rgRoot.prefix) ? printed.slice(rgRoot.prefix.length) : display
      return onFile({ display, relative })
    },
  })
}
