/**
 * Bounded streaming UTF-8 reads of regular files. Reads 64 KiB chunks, never more than
 * `maxBytes + 1` bytes in total (so a growing file or one of unknown size is still capped),
 * decodes with a fatal streaming decoder (invalid UTF-8, including UTF-16 files, is rejected,
 * never turned into mojibake) and checks the signal between chunks. Always closes the descriptor.
 *
 * Open, `fstat` and close are synchronous, and so are the reads of the first 64 KiB of a file
 * whose `fstat` size is below that: a small file (an instruction file, most sources) costs no
 * thread-pool round trip at all, where the promise API took five (open, fstat, read, the read
 * that sees the end, close). Larger files, and a small one that keeps growing, are read on the
 * thread pool so a big read never holds the event loop.
 */
import { read, readSync } from 'node:fs'
import { promisify, TextDecoder } from 'node:util'
import type { FsReadOptions, FsVersion } from '@dsh/contracts'
import { requireAbsolute } from './canonical-path.ts'
import { FsError, throwIfAborted, toFsError } from './fs-error.ts'
import { versionOf } from './node-info.ts'
import { closeQuietly, openRegularFile, requireRegularFile } from './open-regular-file.ts'
import { probe } from './probe.ts'

const CHUNK_BYTES = 64 * 1024
/** Bytes of a file read synchronously when its size says it is small. */
const SYNC_READ_BYTES = CHUNK_BYTES

const readAsync = promisify(read)

/** Read options plus internal switches. */
export interface TextReadOptions extends FsReadOptions {
  /** Keep a leading UTF-8 BOM as U+FEFF (edits must write it back); stripped by default. */
  readonly keepBom?: boolean
  /**
   * Reject at once when `fstat` already reports more than the cap (whole-file reads). Streams
   * leave this off so a consumer can still take a prefix of a huge file and stop early.
   */
  readonly rejectOversize?: boolean
  /** Byte offset to start at (the first byte of a UTF-8 character); a BOM is kept past 0. Default 0. */
  readonly startByte?: number
}

function tooLarge(path: string, maxBytes: number): FsError {
  return new FsError('FS_TOO_LARGE', path, `file is larger than the ${maxBytes}-byte read limit`)
}

function decodeOrReject(decoder: TextDecoder, bytes: Uint8Array | undefined, path: string): string {
  try {
    return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true })
  } catch (error) {
    throw new FsError('FS_NOT_UTF8', path, 'is not valid UTF-8 text (binary or another encoding)', {
      cause: error,
    })
  }
}

/**
 * Yields decoded text chunks of the regular file at absolute `path`. `onOpened` receives the
 * version from `fstat` of the opened descriptor before the first chunk.
 */
export async function* textChunks(
  path: string,
  options: TextReadOptions,
  defaultMaxBytes: number,
  onOpened?: (version: FsVersion) => void,
): AsyncGenerator<string, void, undefined> {
  requireAbsolute(path)
  const { signal } = options
  const maxBytes = options.maxBytes ?? defaultMaxBytes
  throwIfAborted(signal, path)
  // Cheap pre-check (one stat) so a known FIFO or device is never even opened: opening some
  // devices has side effects. The fstat after the open is still the authoritative check.
  const before = probe(path, true)
  if (before === undefined) throw new FsError('FS_NOT_FOUND', path, 'no such file')
  requireRegularFile(before, path)
  const { fd, stats } = openRegularFile(path)
  try {
    if (options.rejectOversize === true && Number(stats.size) > maxBytes) throw tooLarge(path, maxBytes)
    onOpened?.(versionOf(stats))
    const start = options.startByte ?? 0
    const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: options.keepBom === true || start > 0 })
    const expected = Number(stats.size) - start
    const small = expected < SYNC_READ_BYTES
    // A small file gets a buffer one byte larger than its size (the extra byte sees growth), not a
    // whole chunk; one that turns out to grow gets a whole chunk for the rest.
    let buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1, small ? Math.max(expected, 0) + 1 : CHUNK_BYTES))
    let total = 0
    for (;;) {
      if (total > 0 && buffer.length < CHUNK_BYTES && buffer.length < maxBytes + 1) buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1))
      throwIfAborted(signal, path)
      const want = Math.min(buffer.length, maxBytes + 1 - total)
      const position = start + total
      const bytesRead = small && total < SYNC_READ_BYTES ? readChunkSync(fd, buffer, want, position, path) : await readChunk(fd, buffer, want, position, path)
      if (bytesRead === 0) break
      total += bytesRead
      if (total > maxBytes) throw tooLarge(path, maxBytes)
      const text = decodeOrReject(decoder, buffer.subarray(0, bytesRead), path)
      if (text !== '') yield text
      // A short read that reached the size fstat reported is the end of the file: no further read
      // to see zero bytes. (A short read before that size, which some network filesystems give,
      // reads on.)
      if (bytesRead < want && total >= expected) break
    }
    throwIfAborted(signal, path)
    const tail = decodeOrReject(decoder, undefined, path)
    if (tail !== '') yield tail
  } finally {
    closeQuietly(fd)
  }
}

function readChunkSync(fd: number, buffer: Buffer, length: number, position: number, path: string): number {
  try {
    return readSync(fd, buffer, 0, length, position)
  } catch (error) {
    throw toFsError(error, path, 'read')
  }
}

async function readChunk(fd: number, buffer: Buffer, length: number, position: number, path: string): Promise<number> {
  try {
    return (await readAsync(fd, buffer, 0, length, position)).bytesRead
  } catch (error) {
    throw toFsError(error, path, 'read')
  }
}

/** Reads a whole file with the guarantees of {@link textChunks}; version from the opened fd. */
export async function readWholeText(
  path: string,
  options: TextReadOptions,
  defaultMaxBytes: number,
): Promise<{ readonly text: string; readonly version: FsVersion }> {
  const opened: { version?: FsVersion } = {}
  const parts: string[] = []
  const whole = { ...options, rejectOversize: true }
  for await (const chunk of textChunks(path, whole, defaultMaxBytes, (v) => (opened.version = v))) {
    parts.push(chunk)
  }
  const { version } = opened
  if (version === undefined) throw new FsError('FS_IO', path, 'read finished without opening the file')
  return { text: parts.join(''), version }
}
