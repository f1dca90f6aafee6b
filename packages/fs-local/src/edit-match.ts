/**
 * The exact-match edit rule: a non-empty `oldString` must occur exactly once, or at least once
 * with `replaceAll`. Occurrences are counted left to right without overlap.
 *
 * Line endings are kept: in a file whose line breaks are all CRLF, the line breaks of `oldString`
 * and `newString` are taken as CRLF (the model writes `\n`; `read` does not show the `\r`), so an
 * edit neither fails on them nor inserts bare LF lines into a CRLF file.
 */
import type { FsEditSpec } from '@dsh/contracts'
import { FsError } from './fs-error.ts'

/** Non-overlapping occurrences of a non-empty `needle` in `text`. */
export function countOccurrences(text: string, needle: string): number {
  let count = 0
  let from = 0
  for (;;) {
    const index = text.indexOf(needle, from)
    if (index === -1) return count
    count += 1
    from = index + needle.length
  }
}

/** True when `text` has line breaks and every one of them is CRLF. */
function usesCrlf(text: string): boolean {
  const crlf = countOccurrences(text, '\r\n')
  return crlf > 0 && crlf === countOccurrences(text, '\n')
}

const toCrlf = (value: string): string => value.replace(/\r?\n/gu, '\r\n')

/** `edit` with its line breaks in the file's convention. */
function inFileLineEndings(text: string, edit: FsEditSpec): FsEditSpec {
  if (!usesCrlf(text)) return edit
  return { ...edit, oldString: toCrlf(edit.oldString), newString: toCrlf(edit.newString) }
}

/** Applies `edit` to `text` or throws `FS_NO_MATCH` / `FS_AMBIGUOUS_MATCH` (message says how many). */
export function applyEdit(text: string, given: FsEditSpec, path: string): { text: string; replacements: number } {
  const edit = inFileLineEndings(text, given)
  if (edit.oldString === '') throw new FsError('FS_NO_MATCH', path, 'the text to replace is empty')
  const count = countOccurrences(text, edit.oldString)
  if (count === 0) throw new FsError('FS_NO_MATCH', path, 'the text to replace was not found')
  if (count > 1 && edit.replaceAll !== true) {
    throw new FsError('FS_AMBIGUOUS_MATCH', path, `the text to replace occurs ${count} times, expected exactly once`)
  }
  // split/join rather than String.replace: no `$&`-style patterns in the replacement.
  if (edit.replaceAll === true) return { text: text.split(edit.oldString).join(edit.newString), replacements: count }
  const index = text.indexOf(edit.oldString)
  const next = text.slice(0, index) + edit.newString + text.slice(index + edit.oldString.length)
  return { text: next, replacements: 1 }
}
