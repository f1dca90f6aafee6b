/**
 * Opens a path for reading without ever blocking: `O_RDONLY | O_NONBLOCK`, then `fstat` of the
 * opened descriptor decides (a FIFO open returns at once and is rejected here instead of tying up
 * a libuv worker forever; research perf-security §5.0). Both calls are synchronous, like the
 * probes: on a local disk each costs a few microseconds, a thread-pool round trip costs more.
 */
import { closeSync, constants, openSync } from 'node:fs'
import { FsError, toFsError } from './fs-error.ts'
import { isSpecialNode, type NodeStats } from './node-info.ts'
import { probeDescriptor } from './probe.ts'

/** An opened regular file and the `fstat` of its descriptor. */
export interface OpenedFile {
  /** The descriptor; the caller must close it (see {@link closeQuietly}). */
  readonly fd: number
  /** Stats of the opened descriptor (not of a separate lookup). */
  readonly stats: NodeStats
}

/** Rejects anything but a regular file: directories `FS_NOT_A_FILE`, the rest `FS_SPECIAL_FILE`. */
export function requireRegularFile(stats: NodeStats, path: string): void {
  if (stats.isFile()) return
  if (stats.isDirectory()) throw new FsError('FS_NOT_A_FILE', path, 'is a directory, not a file')
  if (isSpecialNode(stats)) {
    throw new FsError('FS_SPECIAL_FILE', path, 'is a FIFO, socket or device, not a regular file')
  }
  throw new FsError('FS_SPECIAL_FILE', path, 'is not a regular file')
}

/** Opens `path` non-blocking and verifies through `fstat` that it is a regular file. */
export function openRegularFile(path: string): OpenedFile {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch (error) {
    throw toFsError(error, path, 'open')
  }
  try {
    const stats = probeDescriptor(fd)
    requireRegularFile(stats, path)
    return { fd, stats }
  } catch (error) {
    closeQuietly(fd)
    throw toFsError(error, path, 'fstat')
  }
}

/** Closes a read-only descriptor; a failing close cannot lose data, so its error is deliberately dropped. */
export function closeQuietly(fd: number): void {
  try {
    closeSync(fd)
  } catch {
    // Dropped on purpose: the descriptor was read-only, nothing was written that could be lost,
    // and rethrowing here would mask the read's own result or error.
  }
}
