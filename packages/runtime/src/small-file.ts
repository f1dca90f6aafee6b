/**
 * Reads a small file that someone else may control — a repository's config files, what a shell
 * command just left in the tree — without letting its type hang or exhaust dsh: the name is
 * looked at first (only a regular file is opened, so no FIFO blocks the open and no device is
 * opened at all), the open is non-blocking, the descriptor must be that same regular file (a swap
 * in between is `changed`), and at most `maxBytes` are read (a file that grows past them is
 * `too-large`). A FIFO at `.git/config` once held `dsh` in a blocking open that no signal could end.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync, type Stats } from 'node:fs'
import { errnoCode, errorMessage } from './errors.ts'

/** How a read went. */
export type SmallFileRead =
  | { readonly kind: 'file'; readonly bytes: Buffer; readonly stats: Stats }
  | { /** Nothing at the name (or a path component is no directory). */ readonly kind: 'absent' }
  | { /** A directory, FIFO, socket or device (or, without `follow`, a link). */ readonly kind: 'not-file'; readonly stats: Stats }
  | { readonly kind: 'too-large'; readonly size: number }
  | { /** Another node took the name between the look and the open. */ readonly kind: 'changed' }
  | { readonly kind: 'unreadable'; readonly reason: string }

/** Options of {@link readSmallFile}. */
export interface SmallFileOptions {
  /** Most bytes read. */
  readonly maxBytes: number
  /** Follow a link at the name (default true); false reports a link as `not-file`. */
  readonly follow?: boolean
}

const sameNode = (a: Stats, b: Stats): boolean => a.dev === b.dev && a.ino === b.ino

/** Reads `path`; never throws. */
export function readSmallFile(path: string, options: SmallFileOptions): SmallFileRead {
  const follow = options.follow ?? true
  let looked: Stats
  try {
    looked = follow ? statSync(path) : lstatSync(path)
  } catch (error) {
    // Absent is an answer; anything else is said in words.
    const code = errnoCode(error)
    return code === 'ENOENT' || code === 'ENOTDIR' ? { kind: 'absent' } : { kind: 'unreadable', reason: errorMessage(error) }
  }
  if (!looked.isFile()) return { kind: 'not-file', stats: looked }
  if (looked.size > options.maxBytes) return { kind: 'too-large', size: looked.size }
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (follow ? 0 : constants.O_NOFOLLOW))
  } catch (error) {
    // ELOOP: a link took the name after the look (without `follow`); gone: it went meanwhile.
    const code = errnoCode(error)
    if (code === 'ELOOP') return { kind: 'changed' }
    return code === 'ENOENT' ? { kind: 'absent' } : { kind: 'unreadable', reason: errorMessage(error) }
  }
  try {
    const opened = fstatSync(fd)
    if (!opened.isFile() || !sameNode(opened, looked)) return { kind: 'changed' }
    const chunks: Buffer[] = []
    let total = 0
    for (;;) {
      const buffer = Buffer.allocUnsafe(Math.min(Math.max(opened.size, 0) + 1, options.maxBytes + 1 - total, 1024 * 1024))
      const count = readSync(fd, buffer, 0, buffer.length, total)
      if (count === 0) break
      total += count
      if (total > options.maxBytes) return { kind: 'too-large', size: total }
      chunks.push(buffer.subarray(0, count))
    }
    return { kind: 'file', bytes: chunks.length === 1 ? (chunks[0] ?? Buffer.alloc(0)) : Buffer.concat(chunks), stats: opened }
  } catch (error) {
    // A read error (EIO, EISDIR on odd filesystems) is the file's problem, said in words.
    return { kind: 'unreadable', reason: errorMessage(error) }
  } finally {
    closeSync(fd)
  }
}

/** The text of a small regular file, or undefined for anything else (see {@link readSmallFile}). */
export function readSmallText(path: string, options: SmallFileOptions): string | undefined {
  const read = readSmallFile(path, options)
  return read.kind === 'file' ? read.bytes.toString('utf8') : undefined
}
