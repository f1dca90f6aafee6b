/**
 * Streams the newline-terminated lines of a byte range of an open file through one reusable
 * buffer (1 MiB, grown only for a longer line, never past the longest line accepted), so a file of
 * any size is read without holding it whole, and offsets stay in bytes whatever the bytes are. Lines are handed over in blocks: each
 * block is a view of the buffer holding one or more whole lines, each ending in a newline, valid
 * only during the callback (decode or copy it there).
 */
import { readSync } from 'node:fs'

const CHUNK_BYTES = 1 << 20
const NEWLINE = 0x0a

/** Where a pass over the lines ended. */
export interface LinesRead {
  /** File offset just after the last complete line (the unterminated rest starts here). */
  readonly end: number
  /** Bytes after the last newline up to the end of the range (a torn or unterminated last line). */
  readonly rest: Buffer
}

/** Range and callback of {@link readLineBlocks}. */
export interface ReadLinesOptions {
  /** Open file descriptor. */
  readonly fd: number
  /** First byte to read (the start of a line). */
  readonly start: number
  /** End of the range (exclusive), usually the file size. */
  readonly end: number
  /** Receives each block of whole lines (newlines included) and the file offset of its first byte. */
  readonly onBlock: (block: Buffer, offset: number) => void
  /** Longest line accepted, newline included; a longer one throws {@link LineTooLongError} before it is held whole. */
  readonly maxLineBytes: number
}

/** A line longer than the reader accepts (its bytes are never held whole, nor decoded). */
export class LineTooLongError extends RangeError {
  /** File offset where the line starts. */
  readonly lineStart: number

  constructor(lineStart: number, maxLineBytes: number) {
    super(`a line starting at byte ${lineStart} is longer than ${maxLineBytes} bytes`)
    this.name = 'LineTooLongError'
    this.lineStart = lineStart
  }
}

/** Calls `onBlock` for every run of complete lines of the range, in order; returns where they end. */
export function readLineBlocks(options: ReadLinesOptions): LinesRead {
  let buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(1, options.end - options.start)))
  let filled = 0
  let bufferOffset = options.start
  let position = options.start
  while (position < options.end) {
    if (filled === buffer.length) {
      if (filled >= options.maxLineBytes) throw new LineTooLongError(bufferOffset, options.maxLineBytes)
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, options.maxLineBytes))
      buffer.copy(grown, 0, 0, filled)
      buffer = grown
    }
    const count = readSync(options.fd, buffer, filled, Math.min(buffer.length - filled, options.end - position), position)
    if (count === 0) break
    const searchFrom = filled
    filled += count
    position += count
    // Only the new bytes can hold the first newline of a line longer than the buffer held so far.
    const newline = buffer.subarray(searchFrom, filled).lastIndexOf(NEWLINE)
    if (newline === -1) continue
    const complete = searchFrom + newline + 1
    options.onBlock(buffer.subarray(0, complete), bufferOffset)
    buffer.copy(buffer, 0, complete, filled)
    filled -= complete
    bufferOffset += complete
  }
  return { end: bufferOffset, rest: Buffer.from(buffer.subarray(0, filled)) }
}
