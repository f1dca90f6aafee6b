/**
 * Atomic file replacement: write a temp file in the target's directory, then rename it over the
 * target. Readers see the old or the new content, never a mix; on any failure the temp file is
 * removed and the old content stays. Keeps the permission bits of an existing file. Temp files that
 * dead writers left in the directory are removed first (see stale-temp-files.ts).
 */
import { randomBytes } from 'node:crypto'
import { mkdir, open, rename, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { FsVersion } from '@dsh/contracts'
import { FsError, throwIfAborted, toFsError } from './fs-error.ts'
import { isSpecialNode, versionOf } from './node-info.ts'
import { probe } from './probe.ts'
import { removeStaleTempFiles } from './stale-temp-files.ts'

/** Options of {@link writeAtomically}. */
export interface AtomicWriteOptions {
  /** Checked before each step; an abort before the rename keeps the old content. */
  readonly signal?: AbortSignal | undefined
  /** When set, the existing file must still have this version right before the rename. */
  readonly expectedVersion?: FsVersion
  /** The path as the caller wrote it, for error messages. */
  readonly displayPath: string
}

function tempNameFor(target: string): string {
  const base = basename(target).slice(0, 40)
  return join(dirname(target), `.${base}.dsh-${process.pid}-${randomBytes(6).toString('hex')}.tmp`)
}

function requireWritableNode(target: string, options: AtomicWriteOptions) {
  const existing = probe(target, false)
  if (existing === undefined) return undefined
  const { displayPath } = options
  if (existing.isSymbolicLink()) throw new FsError('FS_NOT_A_FILE', displayPath, 'is a dangling symbolic link')
  if (existing.isDirectory()) throw new FsError('FS_NOT_A_FILE', displayPath, 'is a directory, not a file')
  if (isSpecialNode(existing) || !existing.isFile()) {
    throw new FsError('FS_SPECIAL_FILE', displayPath, 'is a FIFO, socket or device; refusing to write')
  }
  if (options.expectedVersion !== undefined && versionOf(existing) !== options.expectedVersion) {
    throw new FsError('FS_CONFLICT', displayPath, 'changed on disk while it was being edited')
  }
  return existing
}

/** Replaces canonical `target` with `bytes`; creates parent directories. */
export async function writeAtomically(
  target: string,
  bytes: Uint8Array,
  options: AtomicWriteOptions,
): Promise<{ readonly version: FsVersion; readonly created: boolean }> {
  const { signal, displayPath } = options
  throwIfAborted(signal, displayPath)
  const existing = requireWritableNode(target, options)
  try {
    await mkdir(dirname(target), { recursive: true })
  } catch (error) {
    throw toFsError(error, displayPath, 'create parent directories')
  }
  await removeStaleTempFiles(dirname(target))
  const temp = tempNameFor(target)
  try {
    const handle = await open(temp, 'wx', 0o666)
    try {
      // chmod after the open: the open's mode is masked by the umask, the old file's mode is not.
      if (existing !== undefined) await handle.chmod(Number(existing.mode) & 0o7777)
      await handle.writeFile(bytes)
    } finally {
      await handle.close()
    }
    throwIfAborted(signal, displayPath)
    requireWritableNode(target, options)
    await rename(temp, target)
  } catch (error) {
    await removeTemp(temp)
    throw toFsError(error, displayPath, 'write')
  }
  const after = probe(target, true)
  if (after === undefined) throw new FsError('FS_IO', displayPath, 'vanished right after it was written')
  return { version: versionOf(after), created: existing === undefined }
}

async function removeTemp(temp: string): Promise<void> {
  try {
    await unlink(temp)
  } catch {
    // Cleanup after a failed write: the temp file may never have been created (open failed) or
    // may already be renamed; the write's own error is what the caller needs, so this is dropped.
  }
}
