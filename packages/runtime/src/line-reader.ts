/**
 * Streams the newline-terminated lines of a byte range of an open file through one reusable
 * buffer (1 MiB, grown only for a longer line), so a file of any size is read without holding it
 * whole, and offsets stay in bytes whatever the bytes are. Each line is handed over as a view of
 * the buffer that is valid only during the callback (decode or copy it there).
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

/** Range and callback of {@link readLines}. */
export interface ReadLinesOptions {
  /** Open file descriptor. */
  readonly fd: number
  /** First byte to read (the start of a line). */
  readonly start: number
  /** End of the range (exclusive), usually the file size. */
  readonly end: number
  /** Receives each line without its newline and the file offset of its first byte. */
  readonly onLine: (bytes: Buffer, offset: number) => void
}

/** Calls `onLine` for every complete line of the range, in order; returns where they end. */
export function readLines(options: ReadLinesOptions): LinesRead {
  let buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(1, options.end - options.start)))
  let filled = 0
  let bufferOffset = options.start
  let position = options.start
  while (position < options.end) {
    if (filled === buffer.length) {
      const grown = Buffer.allocUnsafe(buffer.length * 2)
      buffer.copy(grown, 0, 0, filled)
      buffer = grown
    }
    const count = readSync(options.fd, buffer, filled, Math.min(buffer.length - filled, options.end - position), position)
    if (count === 0) break
    const searchFrom = filled
    filled += count
    position += count
    let lineStart = 0
    let newline = buffer.subarray(0, filled).indexOf(NEWLINE, searchFrom)
    while (newline !== -1) {
      options.onLine(buffer.subarray(lineStart, newline), bufferOffset + lineStart)
      lineStart = newline + 1
      newline = buffer.subarray(0, filled).indexOf(NEWLINE, lineStart)
    }
    if (lineStart > 0) {
      buffer.copy(buffer, 0, lineStart, filled)
      filled -= lineStart
      bufferOffset += lineStart
    }
  }
  return { end: bufferOffset, rest: Buffer.from(buffer.subarray(0, filled)) }
}
