/**
 * Advice the search tools give when a result is paged or incomplete, worded for what was searched
 * (issue 22 F20): "narrow path" is only said when path is a directory with subdirectories to
 * narrow to. A single file gets pattern advice; a directory without subdirectories gets glob or
 * pattern advice, or a bash command when nothing narrower exists.
 */
import type { FileSystemPort } from '@dsh/contracts'

/** What a search covered. */
export type SearchScope = 'file' | 'flat-directory' | 'directory'

/** The scope of a search root: a directory is flat when it has no subdirectory but `.git`. */
export async function searchScope(fs: FileSystemPort, root: { readonly path: string; readonly type: 'file' | 'directory' }, signal: AbortSignal): Promise<SearchScope> {
  if (root.type === 'file') return 'file'
  try {
    const entries = await fs.listDir(root.path, signal)
    return entries.some((entry) => entry.type === 'directory' && entry.name !== '.git') ? 'directory' : 'flat-directory'
  } catch {
    // The directory vanished or cannot be listed since the search: keep the general advice.
    return 'directory'
  }
}

/** How to get fewer grep results (ends a "Call grep with offset=N for the next page, or …" note). */
export function grepNarrowing(scope: SearchScope): string {
  switch (scope) {
    case 'file':
      return 'narrow the pattern'
    case 'flat-directory':
      return 'narrow the pattern or glob'
    case 'directory':
      return 'narrow the pattern, path or glob'
    default:
      return scope satisfies never
  }
}

/** How to get fewer glob results. */
export function globNarrowing(scope: SearchScope): string {
  return scope === 'directory' ? 'use a narrower pattern or path' : 'use a narrower pattern'
}

/** The note of a call stopped by its time limit. */
export function timeLimitNote(limitMs: number, tool: 'grep' | 'glob', scope: SearchScope): string {
  const head = `[Stopped at the ${limitMs / 1000} s time limit: the results are incomplete.`
  if (tool === 'glob') {
    if (scope === 'directory') return `${head} Pass a subdirectory as path.]`
    return `${head} This directory alone holds more entries than can be listed in time: list part of it with bash (ls -f | head -1000).]`
  }
  switch (scope) {
    case 'file':
      return `${head} Simplify the pattern (without lookaround and backreferences it runs in linear time), or read the file in pages with read (offset, limit).]`
    case 'flat-directory':
      return `${head} Pass a glob to search fewer of its files, or simplify the pattern.]`
    case 'directory':
      return `${head} Narrow path or glob, or simplify the pattern.]`
    default:
      return scope satisfies never
  }
}

/** The note of the built-in walker stopping at its entry limit. */
export function entryLimitNote(maxEntries: number, tool: 'grep' | 'glob', scope: SearchScope): string {
  const head = `[Stopped after ${maxEntries} directory entries; results are incomplete.`
  if (scope === 'directory') return `${head} Pass a subdirectory as path.]`
  const command = tool === 'grep' ? 'grep -rn PATTERN .' : 'find . -name PATTERN'
  return `${head} This directory alone holds more: use bash (${command}).]`
}
