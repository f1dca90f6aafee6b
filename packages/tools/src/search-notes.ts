/**
 * The notes the search tools append to their results: what was left out and why (one note per
 * reason, so "too large" never hides among "binary") and the fallback notice. Advice worded for
 * the searched path (time limit, paging) is in search-advice.ts.
 */
import type { SkipCounts } from './search-types.ts'

/** Files larger than this are skipped by the built-in walker (rg searches any size). */
export const WALKER_MAX_FILE_BYTES = 1024 * 1024

const plural = (count: number, one: string, many: string): string => (count === 1 ? `1 ${one}` : `${count} ${many}`)

/** One note per non-zero reason, in a fixed order. */
export function skipNotes(skips: SkipCounts): string[] {
  const notes: string[] = []
  if (skips.tooLarge > 0) {
    notes.push(`[Skipped ${plural(skips.tooLarge, 'file', 'files')} over 1 MiB, too large for the built-in search; read pages through a file of any size.]`)
  }
  if (skips.binary > 0) notes.push(`[Skipped ${plural(skips.binary, 'binary or non-UTF-8 file', 'binary or non-UTF-8 files')}.]`)
  if (skips.unreadable > 0) {
    notes.push(`[${plural(skips.unreadable, 'file or directory', 'files or directories')} could not be read (permissions, or removed during the search).]`)
  }
  if (skips.brokenLinks > 0) {
    notes.push(`[Skipped ${plural(skips.brokenLinks, 'broken symbolic link', 'broken symbolic links')} (the target does not exist).]`)
  }
  if (skips.env > 0) {
    notes.push(`[Skipped ${plural(skips.env, '.env file', '.env files')}: .env files usually hold secrets; name one as path to search it.]`)
  }
  if (skips.secret > 0) notes.push(`[Left out ${plural(skips.secret, 'file', 'files')} in protected secret locations.]`)
  if (skips.patternLimit > 0) {
    notes.push(
      `[${plural(skips.patternLimit, 'file', 'files')} could not be fully searched: the pattern hit the regex engine's backtracking limit. Simplify it (avoid nested quantifiers such as (a+)+).]`,
    )
  }
  return notes
}

/** The notice of a result that the built-in walker produced because rg could not run. */
export function fallbackNotice(reason: string, tool: 'grep' | 'glob'): string {
  const head = `[ripgrep could not run (${reason}), so this result comes from the built-in search: it reads no ignore files (only .git and node_modules are skipped)`
  if (tool === 'glob') return `${head}.]`
  return `${head}, skips files over 1 MiB and non-UTF-8 files, and matches JavaScript regular expressions line by line.]`
}
