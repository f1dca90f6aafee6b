/**
 * ACP `diff` content for edits and writes. When an `edit` or `write` call starts, the file it
 * names is read from the disk (at most {@link maxDiffBytes}, only inside the session's
 * directories); when the call succeeded, the diff is that text against the file's new text (a
 * write: its `content`; an edit: the file read again). A file that did not exist is a diff without
 * `oldText`. When the file cannot be read (too large, outside the session's directories, not
 * UTF-8), an edit's diff is its `old_string` against its `new_string`, and a write shows none.
 */
import { readSmallFile } from '@dsh/runtime'
import { resolve, sep } from 'node:path'
import type { ToolCallContent } from '@agentclientprotocol/sdk'
import { argumentsOf } from './tool-presentation.ts'
import type { PathSpelling } from './path-spelling.ts'

/** Larger files are not read for a diff. */
export const maxDiffBytes = 256 * 1024

/** The file of an edit or write as it was when the call started. */
export interface EditBefore {
  /** Canonical absolute path. */
  readonly path: string
  /** Its text; `null` when no file was there; `undefined` when it could not be read. */
  readonly text: string | null | undefined
}

function inside(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`))
}

function readSmall(path: string): string | null | undefined {
  // Nothing there yet is a new file; anything else that is not a small regular file (a directory,
  // a FIFO or a link to a device, which a plain read would hang on; no access) shows no file text.
  const read = readSmallFile(path, { maxBytes: maxDiffBytes })
  if (read.kind === 'absent') return null
  if (read.kind !== 'file') return undefined
  const text = read.bytes.toString('utf8')
  return text.includes('\uFFFD') ? undefined : text
}

/** Reads what an `edit` or `write` call is about to change; undefined for other tools. */
export function captureBefore(name: string, rawArguments: string, cwd: string, roots: readonly string[]): EditBefore | undefined {
  if (name !== 'edit' && name !== 'write') return undefined
  const file = argumentsOf(rawArguments)['file_path']
  if (typeof file !== 'string' || file === '') return undefined
  const path = resolve(cwd, file)
  return { path, text: inside(path, roots) ? readSmall(path) : undefined }
}

/** The diff content of a successful `edit` or `write`; empty when none can be shown. */
export function diffContent(name: string, rawArguments: string, before: EditBefore | undefined, spelling: PathSpelling): ToolCallContent[] {
  if (before === undefined) return []
  const args = argumentsOf(rawArguments)
  const path = spelling.show(before.path)
  if (name === 'write' && typeof args['content'] === 'string' && before.text !== undefined) return [{ type: 'diff', path, oldText: before.text, newText: args['content'] }]
  if (name !== 'edit') return []
  const after = before.text === undefined ? undefined : readSmall(before.path)
  if (typeof before.text === 'string' && typeof after === 'string') return [{ type: 'diff', path, oldText: before.text, newText: after }]
  if (typeof args['old_string'] === 'string' && typeof args['new_string'] === 'string') return [{ type: 'diff', path, oldText: args['old_string'], newText: args['new_string'] }]
  return []
}
