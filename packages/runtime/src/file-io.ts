/**
 * The write calls of the session log, behind a small seam so tests can make them fail the way a
 * full disk does (a short count without an error, then `ENOSPC`) without needing one, the
 * plain-words reason of an I/O error for one-line messages ("no space left on device"), and the
 * removal of temp files that may or may not exist, and small reads that a FIFO at the name cannot
 * block.
 */
import { closeSync, constants, fdatasync, fdatasyncSync, fstatSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { errnoCode, errorMessage } from './errors.ts'

/** The write calls session files go through. Implementations behave like `node:fs`. */
export interface SessionFileIo {
  /** `fs.writeSync(fd, buffer, offset, length, position)`: may write fewer bytes than asked. */
  readonly writeSync: (fd: number, buffer: Uint8Array, offset: number, length: number, position: number | null) => number
  /** `fs.fdatasyncSync(fd)`. */
  readonly fdatasyncSync: (fd: number) => void
  /** `fs.fdatasync(fd, done)`: the same flush on the thread pool. */
  readonly fdatasync: (fd: number, done: (error: Error | null) => void) => void
}

/** The real calls. */
export const nodeFileIo: SessionFileIo = {
  writeSync: (fd, buffer, offset, length, position) => writeSync(fd, buffer, offset, length, position),
  fdatasyncSync: (fd) => fdatasyncSync(fd),
  fdatasync: (fd, done) => fdatasync(fd, done),
}

/** Why a write failed, in words: the text of an errno error without its code and syscall. */
export function ioReason(error: unknown): string {
  const message = errorMessage(error)
  const match = /^[A-Z][A-Z0-9_]*: (.+?)(?:, [a-z]+(?: '[^']*'(?: -> '[^']*')?)?)?$/.exec(message)
  return match?.[1] ?? message
}

/**
 * Writes all of `bytes` at the end of an `O_APPEND` file in one call; returns an error reason when
 * the call failed or wrote only part (the caller cuts the partial bytes off).
 */
export function writeWhole(io: SessionFileIo, fd: number, bytes: Uint8Array): string | undefined {
  let written: number
  try {
    written = io.writeSync(fd, bytes, 0, bytes.length, null)
  } catch (error) {
    // The caller turns the reason into its one-line error and restores the file.
    return ioReason(error)
  }
  return written === bytes.length ? undefined : `short write (${written} of ${bytes.length} bytes; the disk may be full)`
}

/** Removes a file if it is there; a file already gone is what the caller wanted. */
export function removeIfPresent(file: string): void {
  try {
    unlinkSync(file)
  } catch (error) {
    // Already gone (never created, renamed into place, or cleaned up by another process): nothing to remove.
    if (errnoCode(error) !== 'ENOENT') throw error
  }
}

/**
 * The text of a small file, opened without blocking: `undefined` when something other than a
 * regular file stands at the name (a FIFO would block a plain read until a writer came). Errors
 * of the open itself (`ENOENT`, …) are thrown for the caller to judge.
 */
export function readRegularFile(file: string): string | undefined {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    return fstatSync(fd).isFile() ? readFileSync(fd, 'utf8') : undefined
  } finally {
    closeSync(fd)
  }
}
