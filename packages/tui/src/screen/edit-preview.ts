/**
 * The diff an edit or a write shows in the transcript. An edit diffs its `old_string` against its
 * `new_string` (without hunk headers: their line numbers would count from the snippet); a write
 * diffs the file as it was when the call started (read then, up to {@link maxBeforeBytes}, and only
 * under the session's directory; a missing file counts as empty) against the written content.
 */
import { readSmallFile } from '@dsh/runtime'
import { resolve, sep } from 'node:path'
import { parseArguments } from '../tool-summary.ts'
import { diffLines } from './diff-block.ts'

/** Larger files are not read for a write's diff. */
export const maxBeforeBytes = 256 * 1024

/** What a write replaced, read when the call starts; undefined when it cannot be known. */
export function contentBefore(name: string, rawArguments: string, cwd: string): string | undefined {
  if (name !== 'write') return undefined
  const path = parseArguments(rawArguments)?.['file_path']
  if (typeof path !== 'string') return undefined
  const file = resolve(cwd, path)
  // Only files under the session's directory are read ahead of the call; elsewhere no diff is shown.
  if (!file.startsWith(`${resolve(cwd)}${sep}`)) return undefined
  // A FIFO or a link to a device in its place is read as nothing (a plain read would hang the chat).
  const read = readSmallFile(file, { maxBytes: maxBeforeBytes })
  if (read.kind === 'file') return read.bytes.toString('utf8')
  // Too large: no diff; no such file yet (a new file) or unreadable: every line shows as added.
  return read.kind === 'too-large' || read.kind === 'not-file' || read.kind === 'changed' ? undefined : ''
}

/** Diff lines for a finished edit or write; undefined for other tools. */
export function editDiff(name: string, rawArguments: string, before: string | undefined): string[] | undefined {
  const args = parseArguments(rawArguments)
  if (args === undefined) return undefined
  if (name === 'edit' && typeof args['old_string'] === 'string' && typeof args['new_string'] === 'string') {
    // Line numbers of an edit's hunks count from its old_string, not the file: show gaps as ⋮ instead.
    return diffLines(args['old_string'], args['new_string'])
      .map((line) => (line.startsWith('@@') ? '⋮' : line))
      .slice(1)
  }
  if (name === 'write' && typeof args['content'] === 'string' && before !== undefined) return diffLines(before, args['content'])
  return undefined
}
