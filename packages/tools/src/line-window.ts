/**
 * Streams a text file through the fs port and keeps only a window of lines (`offset`, `limit`),
 * numbered and with over-long lines cut, under an output byte budget. Memory stays bounded by the
 * window, whatever the file size: lines before the window are counted, never kept, and of a long
 * line only the shown characters are kept (its length is counted). Stops reading as soon as the
 * window is full. With `charOffset`, the window is one slice of the line at `offset`.
 *
 * With a line index (`options.index`) and a port that can start mid-file (`streamTextFrom`), the
 * read starts at the nearest recorded position before the window and records the positions it
 * passes, so a later read of the unchanged file skips what was read before (`line-index.ts`).
 */
import type { FileSystemPort, FsVersion } from '@dsh/contracts'
import { ChunkBytes } from './chunk-bytes.ts'
import type { FileLineIndex } from './line-index.ts'
import type { LineWindow, LineWindowOptions } from './line-window-types.ts'
import { WindowReader, type Start } from './window-reader.ts'

export type { CutLine, LineWindow, LineWindowOptions } from './line-window-types.ts'

/** The index entry and start position for this read, when the port can start mid-file. */
async function startOf(fs: FileSystemPort, path: string, options: LineWindowOptions): Promise<{ index: FileLineIndex; start: Start } | undefined> {
  if (options.index === undefined || fs.streamTextFrom === undefined) return undefined
  const info = await fs.stat(path, options.signal)
  if (info?.type !== 'file') return undefined
  const index = options.index.open(path, info.version)
  const { offset, charOffset } = options
  const inLine = charOffset === undefined ? undefined : index.charBefore(offset, charOffset - 1)
  if (inLine !== undefined) return { index, start: { line: offset, char: inLine.at, byte: inLine.byte } }
  const line = index.lineBefore(offset)
  return { index, start: { line: line.at, char: 0, byte: line.byte } }
}

function withoutIndex(options: LineWindowOptions): LineWindowOptions {
  const { index: _index, ...rest } = options
  return rest
}

/** Reads the window of lines described by `options` from absolute `path`. */
export async function readLineWindow(fs: FileSystemPort, path: string, options: LineWindowOptions): Promise<LineWindow> {
  const { offset, charOffset, signal, maxOutputBytes } = options
  const indexed = await startOf(fs, path, options)
  const start = indexed?.start ?? { line: 1, char: 0, byte: 0 }
  const total = indexed?.index.totalLines
  if (total !== undefined && offset > total) return { lines: [], first: offset, totalLines: total, endedBy: 'eof', cutLines: 0, binary: false }
  const reader = new WindowReader(options, start, indexed?.index)
  // Kept only while the window can still show the whole file (content never exceeds the output it makes).
  let whole: string[] | undefined = offset === 1 && charOffset === undefined && start.byte === 0 ? [] : undefined
  let wholeBytes = 0
  let opened: FsVersion | undefined
  const stream =
    indexed === undefined || fs.streamTextFrom === undefined
      ? fs.streamText(path, { signal, maxBytes: Number.MAX_SAFE_INTEGER })
      : fs.streamTextFrom(path, { signal, maxBytes: Number.MAX_SAFE_INTEGER, startByte: start.byte, onOpened: (version) => (opened = version) })
  let byte = start.byte
  let sawText = false
  for await (const chunk of stream) {
    if (indexed !== undefined && opened !== indexed.index.version) {
      // The file changed between the stat and the open: the kept positions may be wrong. Read it again from the start, without them.
      options.index?.forget(path)
      return readLineWindow(fs, path, withoutIndex(options))
    }
    if (chunk.includes('\u0000')) return { lines: [], first: offset, endedBy: 'eof', cutLines: 0, binary: true }
    sawText = true
    const bytes = new ChunkBytes(chunk, byte)
    byte += bytes.length
    if (options.index !== undefined) options.index.counters.bytesStreamed += bytes.length
    if (whole !== undefined) {
      wholeBytes += bytes.length
      if (wholeBytes > maxOutputBytes) whole = undefined
      else whole.push(chunk)
    }
    if (!reader.chunk(chunk, bytes)) break
  }
  if (indexed !== undefined && opened !== undefined && opened !== indexed.index.version) {
    options.index?.forget(path)
    return readLineWindow(fs, path, withoutIndex(options))
  }
  // The last line has no newline: end it unless the file ended right after one.
  const open = reader.endedBy === undefined && (sawText || start.char > 0) && (reader.length > 0 || reader.kept !== '')
  const closed = open && !reader.endLine()
  const { lines, cutLines, firstCut, slice } = reader
  const result = { lines, first: offset, cutLines, binary: false, ...(firstCut === undefined ? {} : { firstCut }), ...(slice === undefined ? {} : { slice }) }
  if (reader.endedBy !== undefined) return { ...result, endedBy: reader.endedBy }
  if (closed) return { ...result, endedBy: 'limit' }
  const totalLines = reader.lineNumber - 1
  if (indexed !== undefined) indexed.index.totalLines = totalLines
  const wholeText = whole !== undefined && cutLines === 0 ? { wholeText: whole.join('') } : {}
  return { ...result, totalLines, endedBy: 'eof', ...wholeText }
}
