/**
 * `readSmallTexts`: several small files looked at and read in one synchronous loop (the skills
 * scan reads every `SKILL.md` of a folder at once). Per path: `lstat` (a link, directory, FIFO,
 * socket or device is reported and never opened), then `open` with `O_NOFOLLOW | O_NONBLOCK`,
 * `fstat` of the descriptor, which must be the regular file the `lstat` saw (same device and
 * inode; another node swapped in between is `FS_CONFLICT`), and one read of its size plus a byte
 * (more bytes than the size means it is growing: read on until the cap). Files up to
 * {@link SYNC_BYTES} are read synchronously, larger ones (when the cap allows them) on the thread
 * pool from the same descriptor. Never rejects for one path, only for cancellation.
 */
import { constants, openSync, read, readSync } from 'node:fs'
import { promisify, TextDecoder } from 'node:util'
import type { FsSmallText, FsSmallTextOptions } from '@dsh/contracts'
import { requireAbsolute } from './canonical-path.ts'
import { FsError, throwIfAborted, toFsError } from './fs-error.ts'
import { pathInfoOf, type NodeStats } from './node-info.ts'
import { closeQuietly } from './open-regular-file.ts'
import { probe, probeDescriptor } from './probe.ts'

/** Bytes of one file read synchronously; the rest of a larger one is read on the thread pool. */
export const SYNC_BYTES = 1024 * 1024

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW
const readAsync = promisify(read)

const sameNode = (a: NodeStats, b: NodeStats): boolean => a.dev === b.dev && a.ino === b.ino

/** Reads every path of `paths` (absolute) as {@link FsSmallText}. */
export async function readSmallTexts(paths: readonly string[], options: FsSmallTextOptions): Promise<FsSmallText[]> {
  const out: FsSmallText[] = []
  for (const path of paths) {
    throwIfAborted(options.signal, path)
    out.push(await readOne(path, options))
  }
  return out
}

async function readOne(path: string, options: FsSmallTextOptions): Promise<FsSmallText> {
  let looked: NodeStats | undefined
  try {
    requireAbsolute(path)
    looked = probe(path, false)
  } catch (error) {
    return { kind: 'failed', error: toFsError(error, path, 'lstat') }
  }
  if (looked === undefined) return { kind: 'absent' }
  const info = pathInfoOf(looked)
  if (!looked.isFile()) return { kind: 'not-file', info }
  if (options.known?.get(path) === info.version) return { kind: 'unchanged', info }
  if (Number(looked.size) > options.maxBytes) return { kind: 'failed', error: tooLarge(path, options.maxBytes), info }
  let fd: number
  try {
    fd = openSync(path, OPEN_FLAGS)
  } catch (error) {
    // ELOOP: a link took the file's place after the look; anything else is the open's own failure.
    return { kind: 'failed', error: swapOr(error, path, 'open') }
  }
  try {
    const opened = probeDescriptor(fd)
    if (!opened.isFile() || !sameNode(opened, looked)) return { kind: 'failed', error: new FsError('FS_CONFLICT', path, 'another file took its place while it was being opened') }
    const text = await readAll(fd, Number(opened.size), path, options)
    return { kind: 'text', text, info: pathInfoOf(opened) }
  } catch (error) {
    if (options.signal?.aborted === true) throw error
    return { kind: 'failed', error: toFsError(error, path, 'read') }
  } finally {
    closeQuietly(fd)
  }
}

/** Reads the whole descriptor (at most `maxBytes`) as fatal UTF-8, a leading BOM stripped. */
async function readAll(fd: number, size: number, path: string, options: FsSmallTextOptions): Promise<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  const buffer = Buffer.allocUnsafe(Math.min(Math.max(size, 0) + 1, options.maxBytes + 1, SYNC_BYTES))
  const parts: string[] = []
  let total = 0
  for (;;) {
    const want = Math.min(buffer.length, options.maxBytes + 1 - total)
    const bytesRead = total < SYNC_BYTES ? readSync(fd, buffer, 0, want, total) : (await readAsync(fd, buffer, 0, want, total)).bytesRead
    if (bytesRead === 0) break
    total += bytesRead
    if (total > options.maxBytes) throw tooLarge(path, options.maxBytes)
    parts.push(decode(decoder, buffer.subarray(0, bytesRead), path))
    // A short read that reached the size fstat reported is the end: no read to see zero bytes.
    if (bytesRead < want && total >= size) break
    throwIfAborted(options.signal, path)
  }
  parts.push(decode(decoder, undefined, path))
  return parts.join('')
}

function decode(decoder: TextDecoder, bytes: Uint8Array | undefined, path: string): string {
  try {
    return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true })
  } catch (error) {
    throw new FsError('FS_NOT_UTF8', path, 'is not valid UTF-8 text (binary or another encoding)', { cause: error })
  }
}

const tooLarge = (path: string, maxBytes: number): FsError => new FsError('FS_TOO_LARGE', path, `file is larger than the ${maxBytes}-byte read limit`)

function swapOr(error: unknown, path: string, action: string): FsError {
  if (typeof error === 'object' && error !== null && Reflect.get(error, 'code') === 'ELOOP') return new FsError('FS_CONFLICT', path, 'a link took its place while it was being opened', { cause: error })
  return toFsError(error, path, action)
}
