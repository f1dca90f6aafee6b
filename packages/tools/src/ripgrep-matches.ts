/**
 * grep's content mode in one rg pass while the output stays small: `rg --json` over the root,
 * each file kept or not by the same verdict as the two-pass search (glob, secrets, `.env`), its
 * matching lines counted and remembered, so the page is cut from what is already here instead of
 * a second rg run over the chosen files. Once the JSON passes a byte cap (a pattern that matches
 * most lines of a large tree) the run is stopped and the caller falls back to the two passes
 * (ripgrep-grep.ts), whose first pass prints only a count per file.
 */
import { jsonArgs, ripgrepRoot, type PatternFlags } from './ripgrep-args.ts'
import { countStderr, failureOf, parseMatch, printedJudge, type RipgrepFailure, type RipgrepSearch } from './ripgrep-grep.ts'
import { runRipgrep } from './ripgrep-process.ts'
import type { FileVerdict } from './search-filter.ts'
import type { ContentEntry, FileHit, SkipCounts } from './search-types.ts'

/** JSON bytes one pass may print before the two passes take over (a few thousand matching lines). */
export const ONE_PASS_MAX_BYTES = 2 * 1024 * 1024

/** What one pass found: files with counts, and a page cutter over the remembered matches. */
export interface OnePass {
  readonly hits: FileHit[]
  /** The entries of `window` (files with how many of their matches to skip and take). */
  readonly entries: (window: readonly { readonly hit: FileHit; readonly skip: number; readonly take: number }[]) => ContentEntry[]
}

/** One pass, or `too-large` when the output passed `maxBytes` (nothing is counted then). */
export async function ripgrepOnePass(
  search: RipgrepSearch,
  flags: PatternFlags,
  root: string,
  verdict: (relative: string, absolute: string) => FileVerdict,
  skips: SkipCounts,
  maxBytes = ONE_PASS_MAX_BYTES,
): Promise<OnePass | 'too-large' | { readonly failure: RipgrepFailure; readonly partial: OnePass }> {
  const rgRoot = ripgrepRoot(search.cwd, root)
  const files = new Map<string, { readonly hit: { display: string; absolute: string; count: number }; readonly matches: (() => ContentEntry)[] } | undefined>()
  const local: SkipCounts = { ...skips }
  let bytes = 0
  let tooLarge = false
  // A match's display path is the path rg printed less a leading `./`; the judge reads it the same way.
  const judge = printedJudge(search.cwd, rgRoot, verdict, local)
  const fileOf = (display: string) => {
    if (files.has(display)) return files.get(display)
    const kept = judge(display)
    const file = kept === undefined ? undefined : { hit: { ...kept, count: 0 }, matches: [] as (() => ContentEntry)[] }
    files.set(display, file)
    return file
  }
  const exit = await runRipgrep({
    binary: search.binary,
    args: jsonArgs(flags, [rgRoot.arg]),
    cwd: search.cwd,
    deadline: search.deadline,
    signal: search.signal,
    onLine: (line) => {
      bytes += line.length + 1
      if (bytes > maxBytes) {
        tooLarge = true
        return false
      }
      const match = parseMatch(line)
      if (match === undefined) return true
      const file = fileOf(match.display)
      if (file !== undefined) {
        file.hit.count += 1
        file.matches.push(match.entry)
      }
      return true
    },
  })
  if (tooLarge) return 'too-large'
  const kept = [...files.values()].filter((file) => file !== undefined)
  const found: OnePass = {
    hits: kept.map((file) => file.hit),
    entries: (window) => window.flatMap(({ hit, skip, take }) => (files.get(hit.display)?.matches ?? []).slice(skip, skip + take).map((entry) => entry())),
  }
  Object.assign(skips, local)
  const failure = failureOf(exit)
  if (failure !== undefined) return { failure, partial: found }
  if (exit.kind === 'exited') countStderr(exit.stderr, skips)
  return found
}
