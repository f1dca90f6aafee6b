/**
 * One pass of read over a file's text from a start position: counts lines before the window, keeps
 * the window's lines (numbered, long ones cut) under the output budget, or one slice of a line in
 * `charOffset` mode, and records the positions it passes in the line index (`line-index.ts`).
 */
import type { ChunkBytes } from './chunk-bytes.ts'
import type { FileLineIndex } from './line-index.ts'
import type { CutLine, LineWindow, LineWindowOptions } from './line-window-types.ts'

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
export interface Start {
  readonly line: number
  readonly char: number
  readonly byte: number
}

/** One pass over the file from a start position. */
export class WindowReader {
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
