/**
 * Reading what stands at a path as a {@link FileState} (storing a regular file's content in the
 * object store), comparing two states, and putting a state back at a path (temp file in the same
 * directory, fsync, rename; then the mode), creating missing parent directories.
 */
import { chmodSync, closeSync, fsyncSync, lstatSync, mkdirSync, openSync, readlinkSync, renameSync, rmSync, symlinkSync, writeSync, type Stats } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { basename, dirname, join } from 'node:path'
import { readSmallFile } from '@dsh/runtime'
import type { ByteBudget } from './byte-budget.ts'
import type { FileState, NotKeptReason } from './checkpoint-types.ts'
import { errnoOf, syncDirectory } from './durable-file.ts'
import type { ObjectStore } from './object-store.ts'

/** Default largest file kept whole (5 MiB). */
export const DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024

/** The lstat of a path, undefined when nothing is there. */
export function lstatOrAbsent(path: string): Stats | undefined {
  try {
    return lstatSync(path)
  } catch (error) {
    // ENOENT/ENOTDIR: nothing at the path, which is a state of its own; other errors are real.
    const code = errnoOf(error)
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    throw error
  }
}

/**
 * The state at `path`, with a regular file's bytes stored in `store` (`added` counts new bytes);
 * with `flush: false` the bytes are stored whole but flushed only later (see {@link ObjectStore.put}).
 */
export function captureState(path: string, store: ObjectStore, maxFileBytes: number, budget?: ByteBudget, options: { readonly flush?: boolean } = {}): { readonly state: FileState; readonly added: number } {
  const stats = lstatOrAbsent(path)
  if (stats === undefined) return { state: { kind: 'absent' }, added: 0 }
  if (stats.isSymbolicLink()) return { state: { kind: 'symlink', target: readlinkSync(path) }, added: 0 }
  const mode = stats.mode & 0o7777
  if (!stats.isFile()) return { state: { kind: 'not-kept', reason: 'not-a-file', size: stats.size, mode }, added: 0 }
  if (stats.size > maxFileBytes) return { state: { kind: 'not-kept', reason: 'too-large', size: stats.size, mode }, added: 0 }
  if (budget !== undefined && !budget.allows(stats.size)) return { state: { kind: 'not-kept', reason: 'over-budget', size: stats.size, mode }, added: 0 }
  // Read without following and without blocking: a link, FIFO or device that took the name since the look is not kept.
  const read = readSmallFile(path, { maxBytes: maxFileBytes, follow: false })
  if (read.kind === 'unreadable') throw new Error(`cannot read ${path}: ${read.reason}`)
  if (read.kind === 'absent') return { state: { kind: 'absent' }, added: 0 }
  if (read.kind === 'too-large') return { state: { kind: 'not-kept', reason: 'too-large', size: read.size, mode }, added: 0 }
  if (read.kind !== 'file') return { state: { kind: 'not-kept', reason: 'not-a-file', size: stats.size, mode }, added: 0 }
  const bytes = read.bytes
  const { blob, added } = store.put(bytes, options)
  budget?.spend(added)
  return { state: { kind: 'file', blob, size: bytes.length, mode }, added }
}

/** Whether two states describe the same thing (content and mode). */
export function sameState(a: FileState, b: FileState): boolean {
  switch (a.kind) {
    case 'absent':
      return b.kind === 'absent'
    case 'file':
      return b.kind === 'file' && a.blob === b.blob && a.mode === b.mode
    case 'symlink':
      return b.kind === 'symlink' && a.target === b.target
    case 'not-kept':
      return b.kind === 'not-kept' && a.size === b.size && a.mode === b.mode
    default: {
      const unreachable: never = a
      throw new Error(`unknown file state ${JSON.stringify(unreachable)}`)
    }
  }
}

/** Why a content was not kept, as a phrase. */
export function notKeptText(reason: NotKeptReason): string {
  switch (reason) {
    case 'too-large':
      return 'it was larger than checkpoints.maxFileBytes'
    case 'over-budget':
      return "the session's checkpoints.maxBytes budget was used up"
    case 'not-a-file':
      return 'it was not a regular file, or could not be read'
    case 'first-look-limit':
      return 'the first look at its root stored its limit of bytes before reaching it'
    default: {
      const unreachable: never = reason
      throw new Error(`unknown reason ${String(unreachable)}`)
    }
  }
}

/** Removes whatever stands at `path` (a directory only when empty). */
function removeEntry(path: string): void {
  const stats = lstatOrAbsent(path)
  if (stats === undefined) return
  rmSync(path, { recursive: false, force: true })
}

/** Puts `state` at `path`; throws for `not-kept` (never restorable). */
export function applyState(path: string, state: FileState, store: ObjectStore): void {
  switch (state.kind) {
    case 'absent':
      removeEntry(path)
      return
    case 'symlink':
      mkdirSync(dirname(path), { recursive: true })
      removeEntry(path)
      symlinkSync(state.target, path)
      return
    case 'file': {
      mkdirSync(dirname(path), { recursive: true })
      const bytes = store.get(state.blob)
      const temp = join(dirname(path), `.${basename(path)}.dsh-rewind-${randomUUID()}.tmp`)
      const handle = openSync(temp, 'wx', state.mode)
      try {
        for (let offset = 0; offset < bytes.length; ) offset += writeSync(handle, bytes, offset, bytes.length - offset)
        fsyncSync(handle)
      } finally {
        closeSync(handle)
      }
      chmodSync(temp, state.mode)
      const existing = lstatOrAbsent(path)
      if (existing?.isDirectory() === true) rmSync(path, { recursive: false })
      renameSync(temp, path)
      syncDirectory(dirname(path))
      return
    }
    case 'not-kept':
      throw new Error(`${path} cannot be restored: ${notKeptText(state.reason)}`)
    default: {
      const unreachable: never = state
      throw new Error(`unknown file state ${JSON.stringify(unreachable)}`)
    }
  }
}
