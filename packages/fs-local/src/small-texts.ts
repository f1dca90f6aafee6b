/**
 * `readSmallTexts`: several small files looked at and read in one synchronous loop (the skills
 * scan reads every `SKILL.md` of a folder at once). Per path: `lstat` (a link, directory, FIFO,
 * socket or device is reported and never opened), then `open` with `O_NOFOLLOW | O_NONBLOCK`,
 * `fstat` of the descriptor, which must be the regular file the `lstat` saw (same device and
 * inode; another node swapped in between is `FS_CONFLICT`), and one read of its size plus a byte
 * (more bytes than the size means it is growing: read on until the cap). The bytes are checked as
 * UTF-8 once (`isUtf8`) and decoded in one piece. Files up to {@link SYNC_BYTES} are read
 * synchronously, larger ones (when the cap allows them) on the thread pool from the same
 * descriptor. Never rejects for one path, only for cancellation.
 */
import { constants, openSync, read, readSync } from 'node:fs'
import { isUtf8 } from 'node:buffer'
import { promisify } from 'node:util'
import type { FsSmallText, FsSmallTextOptions } from '@dsh/contracts'
import { requireAbsolute } from './canonical-path.ts'
import { FsError, systemErrorCode, throwIfAborted, toFsError } from './fs-error.ts'
import { pathInfoOf, versionOf, type NodeStats } from './node-info.ts'
import { closeQuietly } from './open-regular-file.ts'
import { probe, probeDescriptor } from './probe.ts'

/** Bytes of one file read synchronously; the rest of a larger one is read on the thread pool. */
export const SYNC_BYTES = 1024 * 1024

/** Read size after the first read of a file that grows while it is read. */
const GROWTH_BYTES = 64 * 1024

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW
const readAsync = promisify(read)

const sameNode = (a: NodeStats, b: NodeStats): boolean => a.dev === b.dev && a.ino === b.ino

/** Reads every path of `paths` (absolute) as {@link FsSmallText}. */
export async function readSmallTexts(paths: readonly string[], options: FsSmallTextOptions): Promise<FsSmallText[]> {
  const out: FsSmallText[] = []
  for (const path of paths) {
    throwIfAborted(options.signal, path)
    const outcome = readOneSync(path, options)
    out.push(outcome.kind === 'large' ? await readLarge(outcome, path, options) : outcome)
  }
  return out
}

/** A file whose content goes past {@link SYNC_BYTES}: read on from `bytes` on the thread pool, then closed. */
interface LargeRead {
  readonly kind: 'large'
  readonly fd: number
  readonly stats: NodeStats
  readonly chunks: Buffer[]
  readonly total: number
}

/** Looks at and opens `path`, and reads it when it is small; `large` hands the open descriptor on. */
function readOneSync(path: string, options: FsSmallTextOptions): FsSmallText | LargeRead {
  let looked: NodeStats | undefined
  try {
    requireAbsolute(path)
    looked = probe(path, false)
  } catch (error) {
    return { kind: 'failed', error: toFsError(error, path, 'lstat') }
  }
  if (looked === undefined) return { kind: 'absent' }
  if (!looked.isFile()) return { kind: 'not-file', info: pathInfoOf(looked) }
  const known = options.known?.get(path)
  if (known !== undefined && known === versionOf(looked)) return { kind: 'unchanged', info: pathInfoOf(looked) }
  if (Number(looked.size) > options.maxBytes) return { kind: 'failed', error: tooLarge(path, options.maxBytes), info: pathInfoOf(looked) }
  let fd: number
  try {
    fd = openSync(path, OPEN_FLAGS)
  } catch (error) {
    // ELOOP: a link took the file's place after the look; anything else is the open's own failure.
    return { kind: 'failed', error: swapOr(error, path, 'open') }
  }
  let handedOn = false
  try {
    const opened = probeDescriptor(fd)
    if (!opened.isFile() || !sameNode(opened, looked)) return { kind: 'failed', error: new FsError('FS_CONFLICT', path, 'another file took its place while it was being opened') }
    const size = Number(opened.size)
    const chunks: Buffer[] = []
    let total = 0
    for (;;) {
      // Each read gets its own buffer (the chunks are kept, not copied): the size plus one byte
      // first, 64 KiB pieces for a file that turned out to grow.
      const length = Math.min(total === 0 ? Math.max(size, 0) + 1 : GROWTH_BYTES, options.maxBytes + 1 - total, SYNC_BYTES)
      const buffer = Buffer.allocUnsafe(length)
      const bytesRead = readSync(fd, buffer, 0, length, total)
      if (bytesRead === 0) break
      total += bytesRead
      if (total > options.maxBytes) return { kind: 'failed', error: tooLarge(path, options.maxBytes) }
      chunks.push(buffer.subarray(0, bytesRead))
      // A short read that reached the size fstat reported is the end: no read to see zero bytes.
      if (bytesRead < length && total >= size) break
      if (total >= SYNC_BYTES) {
        handedOn = true
        return { kind: 'large', fd, stats: opened, chunks, total }
      }
    }
    return textOf(chunks, path, opened)
  } catch (error) {
    return { kind: 'failed', error: toFsError(error, path, 'read') }
  } finally {
    if (!handedOn) closeQuietly(fd)
  }
}

/** Reads the rest of a large file on the thread pool; always closes its descriptor. */
async function readLarge(large: LargeRead, path: string, options: FsSmallTextOptions): Promise<FsSmallText> {
  const { fd, chunks } = large
  let total = large.total
  try {
    const buffer = Buffer.allocUnsafe(Math.min(SYNC_BYTES, options.maxBytes + 1))
    for (;;) {
      throwIfAborted(options.signal, path)
      const want = Math.min(buffer.length, options.maxBytes + 1 - total)
      const { bytesRead } = await readAsync(fd, buffer, 0, want, total)
      if (bytesRead === 0) break
      total += bytesRead
      if (total > options.maxBytes) return { kind: 'failed', error: tooLarge(path, options.maxBytes) }
      chunks.push(Buffer.from(buffer.subarray(0, bytesRead)))
    }
    return textOf(chunks, path, large.stats)
  } catch (error) {
    if (options.signal?.aborted === true) throw error
    return { kind: 'failed', error: toFsError(error, path, 'read') }
  } finally {
    closeQuietly(fd)
  }
}

/** The UTF-8 text of `chunks` (a leading BOM stripped), or `FS_NOT_UTF8`. */
function textOf(chunks: readonly Buffer[], path: string, stats: NodeStats): FsSmallText {
  const bytes = chunks.length === 1 ? (chunks[0] ?? Buffer.alloc(0)) : Buffer.concat(chunks)
  if (!isUtf8(bytes)) return { kind: 'failed', error: new FsError('FS_NOT_UTF8', path, 'is not valid UTF-8 text (binary or another encoding)') }
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
  return { kind: 'text', text: bytes.toString('utf8', bom), info: pathInfoOf(stats) }
}

const tooLarge = (path: string, maxBytes: number): FsError => new FsError('FS_TOO_LARGE', path, `file is larger than the ${maxBytes}-byte read limit`)

function swapOr(error: unknown, path: string, action: string): FsError {
  if (systemErrorCode(error) === 'ELOOP') return new FsError('FS_CONFLICT', path, 'a link took its place while it was being opened', { cause: error })
  return toFsError(error, path, action)
}
