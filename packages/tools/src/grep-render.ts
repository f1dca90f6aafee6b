/**
 * What grep shows: one page of the ordered results (files, counts or matching lines) and a note
 * naming the range shown, the total, the order, and the offset of the next page.
 */
import { matchWindow } from './match-window.ts'
import type { ContentEntry, FileHit } from './search-types.ts'

/** Most files listed per page (files_with_matches, count). */
export const GREP_MAX_FILES = 200
/** Most matches shown per page (content). */
export const GREP_MAX_LINES = 300
/** Characters shown of a matching line (a window around the match when it is longer). */
export const GREP_MAX_LINE_CHARS = 300

/** The page of files for `offset` (files and count modes); `narrowing` ends the note's advice (search-advice.ts). */
export function filePage(mode: 'files_with_matches' | 'count', hits: readonly FileHit[], offset: number, narrowing: string): { lines: string[]; note?: string } {
  const page = hits.slice(offset, offset + GREP_MAX_FILES)
  const lines = page.map((hit) => (mode === 'count' ? `${hit.display}:${hit.count}` : hit.display))
  if (offset === 0 && hits.length <= GREP_MAX_FILES) return { lines }
  const last = offset + page.length
  const more = last < hits.length ? ` Call grep with offset=${last} for the next page, or ${narrowing}.` : ''
  return { lines, note: `[Files ${offset + 1}-${last} of ${hits.length}, most recently modified first.${more}]` }
}

/** Which files (and how many of their matches to skip and take) cover matches `offset`… of the whole. */
export function contentWindow(hits: readonly FileHit[], offset: number): { hit: FileHit; skip: number; take: number }[] {
  const wanted: { hit: FileHit; skip: number; take: number }[] = []
  let before = 0
  let left = GREP_MAX_LINES
  for (const hit of hits) {
    if (left === 0) break
    const end = before + hit.count
    if (end > offset) {
      const skip = Math.max(0, offset - before)
      const take = Math.min(left, hit.count - skip)
      wanted.push({ hit, skip, take })
      left -= take
    }
    before = end
  }
  return wanted
}

/** Renders matches as `path:line:text` (each line of a multiline match on its own line). */
export function renderEntries(entries: readonly ContentEntry[]): string[] {
  return entries.flatMap((entry) =>
    entry.lines.map((text, index) => `${entry.display}:${entry.line + index}:${matchWindow(text, index === 0 ? entry.matchStart : 0, GREP_MAX_LINE_CHARS)}`),
  )
}

/** Whether the results need a page note (they do not fit in one page, or a later page is shown). */
export function isPaged(mode: 'files_with_matches' | 'count' | 'content', hits: readonly FileHit[], offset: number): boolean {
  if (offset > 0) return true
  return mode === 'content' ? hits.reduce((sum, hit) => sum + hit.count, 0) > GREP_MAX_LINES : hits.length > GREP_MAX_FILES
}

/** The note of a content page, when the results do not fit in one. */
export function contentNote(hits: readonly FileHit[], offset: number, shown: number, narrowing: string): string | undefined {
  const total = hits.reduce((sum, hit) => sum + hit.count, 0)
  if (offset === 0 && total <= GREP_MAX_LINES) return undefined
  const last = offset + shown
  const more = last < total ? ` Call grep with offset=${last} for the next page, or ${narrowing}.` : ''
  return `[Matches ${offset + 1}-${last} of ${total} in ${hits.length} files, most recently modified files first.${more}]`
}
