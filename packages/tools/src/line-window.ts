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
import type { CutLine, LineWindow, LineWindowOptions } from './line-window-types.ts'

export type { CutLine, LineWindow, LineWindowOptions } from './line-window-types.ts'

/** Formats one line: right-aligned number, tab, text (cut at `maxChars` with a marker). */
export function formatLine(number: number, text: string, maxChars: number, length = text.length): { text: string; cut: boolean } {
  const prefix = `${String(number).padStart(6)}\t`
  if (length <= maxChars) return { text: prefix + text, cut: false }
  // Do not split a surrogate pair at the cut.
  const code = text.charCodeAt(maxChars - 1)
  const end = code >= 0xd800 && code <= 0xdbff ? maxChars - 1 : maxChars
  return { text: `${prefix}${text.slice(0, end)}… [line cut: ${length - end} more characters]`, cut: true }
}

const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff

/** Where a read starts: line `line`, `char` characters into it, at file byte `byte`. */
interface Start {
  readonly line: number
  readonly char: number
  readonly byte: number
}

/** One pass over the file from a start position. */
class WindowReader {
  readonly #o: LineWindowOptions
  readonly #index: FileLineIndex | undefined
  readonly lines: string[] = []
  #outputBytes = 0
  cutLines = 0
  firstCut: CutLine | undefined
  slice: LineWindow['slice']
  endedBy: LineWindow['endedBy'] | undefined
  lineNumber: number
  /** Byte where the current line starts (exact when the read started at a line start or reached this line). */
  #lineByte: number
  /** Characters of the current line so far, and the kept ones: characters [keepFrom, keepTo) of lines in the window. */
  length: number
  kept = ''
  readonly #keepFrom: number
  readonly #keepTo: number

  constructor(options: LineWindowOptions, start: Start, index: FileLineIndex | undefined) {
    this.#o = options
    this.#index = index
    this.lineNumber = start.line
    this.#lineByte = start.byte
    this.length = start.char
    const { charOffset } = options
    this.#keepFrom = charOffset === undefined ? 0 : charOffset - 1
    this.#keepTo = charOffset === undefined ? options.maxLineChars + 1 : charOffset - 1 + options.charPage
  }

  /** Takes one chunk; returns false when the window is closed. */
  chunk(chunk: string, bytes: ChunkBytes): boolean {
    let start = 0
    for (let newline = chunk.indexOf('\n'); newline !== -1; newline = chunk.indexOf('\n', start)) {
      this.#take(chunk, start, newline, bytes)
      start = newline + 1
      const next = this.lineNumber + 1
      const lineByte = this.#index !== undefined && (this.#index.wantsLine(next) || next === this.#o.offset) ? bytes.at(start) : -1
      if (!this.endLine()) return false
      this.#lineByte = lineByte
      if (lineByte >= 0) this.#index?.lineStart(next, lineByte)
    }
    if (start < chunk.length) this.#take(chunk, start, chunk.length, bytes)
    return !this.#sliceDone()
  }

  /** In `charOffset` mode with the line's length known from an earlier read: the slice is full, stop reading. */
  #sliceDone(): boolean {
    if (this.#o.charOffset === undefined || this.lineNumber !== this.#o.offset) return false
    const known = this.#index?.knownLength(this.lineNumber)
    if (known === undefined || this.length < Math.min(this.#keepTo, known)) return false
    this.length = known
    this.endLine()
    return true
  }

  #take(chunk: string, from: number, to: number, bytes: ChunkBytes): void {
    const base = this.length
    const end = base + (to - from)
    const inWindow = this.#o.charOffset === undefined ? this.lineNumber >= this.#o.offset : this.lineNumber === this.#o.offset
    if (inWindow) {
      const keepStart = Math.max(base, this.#keepFrom)
      const keepEnd = Math.min(end, this.#keepTo)
      if (keepStart < keepEnd) this.kept += chunk.slice(from + keepStart - base, from + keepEnd - base)
      if (this.#o.charOffset !== undefined) this.#recordChars(chunk, from, base, end, bytes)
    }
    this.length = end
  }

  /** Records the positions of the long line's characters that fall on the index's stride. */
  #recordChars(chunk: string, from: number, base: number, end: number, bytes: ChunkBytes): void {
    const index = this.#index
    if (index === undefined || this.#lineByte < 0) return
    for (let char = index.nextWantedChar(this.lineNumber, base); char < end; char = index.nextWantedChar(this.lineNumber, char + 1)) {
      const at = from + char - base
      if (char > 0 && !isLowSurrogate(chunk.charCodeAt(at))) index.charStart(this.lineNumber, this.#lineByte, char, bytes.at(at))
    }
  }

  /** Ends the current line; returns false when the window is closed. */
  endLine(): boolean {
    const number = this.lineNumber
    const text = this.kept
    const full = this.length
    this.lineNumber += 1
    this.kept = ''
    this.length = 0
    const { offset, charOffset } = this.#o
    if (number < offset) return true
    if (charOffset !== undefined) {
      this.#index?.lineLength(number, full)
      this.lines.push(`${String(number).padStart(6)}\t${text}`)
      this.slice = charOffset > full ? { from: charOffset, to: charOffset - 1, length: full } : { from: charOffset, to: charOffset - 1 + text.length, length: full }
      this.endedBy = 'limit'
      return false
    }
    if (this.lines.length === this.#o.limit) {
      this.endedBy = 'limit'
      return false
    }
    const formatted = formatLine(number, text, this.#o.maxLineChars, full)
    const lineBytes = Buffer.byteLength(formatted.text) + 1
    if (this.#outputBytes + lineBytes > this.#o.maxOutputBytes && this.lines.length > 0) {
      this.endedBy = 'budget'
      return false
    }
    this.#outputBytes += lineBytes
    if (formatted.cut) {
      this.cutLines += 1
      this.firstCut ??= { number, length: full }
    }
    this.lines.push(formatted.text)
    return true
  }
}

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
