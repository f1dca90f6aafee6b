/**
 * Opens a path for reading without ever blocking: `O_RDONLY | O_NONBLOCK`, then `fstat` of the
 * opened descriptor decides (a FIFO open returns at once and is rejected here instead of tying up
 * a libuv worker forever; research perf-security §5.0).
 */
import { constants, type BigIntStats } from 'node:fs'
import { open, type FileHandle } from 'node:fs/promises'
import { FsError, toFsError } from './fs-error.ts'
import { isSpecialNode } from './node-info.ts'

/** An opened regular file and the `fstat` of its descriptor. */
export interface OpenedFile {
  /** The handle; the caller must close it (see {@link closeQuietly}). */
  readonly handle: FileHandle
  /** Stats of the opened descriptor (not of a separate lookup). */
  readonly stats: BigIntStats
}

/** Rejects anything but a regular file: directories `FS_NOT_A_FILE`, the rest `FS_SPECIAL_FILE`. */
export function requireRegularFile(stats: BigIntStats, path: string): void {
  if (stats.isFile()) return
  if (stats.isDirectory()) throw new FsError('FS_NOT_A_FILE', path, 'is a directory, not a file')
  if (isSpecialNode(stats)) {
    throw new FsError('FS_SPECIAL_FILE', path, 'is a FIFO, socket or device, not a regular file')
  }
  throw new FsError('FS_SPECIAL_FILE', path, 'is not a regular file')
}

/** Opens `path` non-blocking and verifies through `fstat` that it is a regular file. */
export async function openRegularFile(path: string): Promise<OpenedFile> {
  let handle: FileHandle
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (error) {
    throw toFsError(error, path, 'open')
  }
  try {
    const stats = await handle.stat({ bigint: true })
    requireRegularFile(stats, path)
    return { handle, stats }
  } catch (error) {
    await closeQuietly(handle)
    throw toFsError(error, path, 'fstat')
  }
}

/** Closes a read-only handle; a failing close cannot lose data, so its error is deliberately dropped. */
export async function closeQuietly(handle: FileHandle): Promise<void> {
  try {
    await handle.close()
  } catch {
    // Dropped on purpose: the descriptor was read-only, nothing was written that could be lost,
    // and rethrowing here would mask the read's own result or error.
  }
}
