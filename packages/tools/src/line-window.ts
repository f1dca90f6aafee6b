/**
 * Streams a text file through the fs port and keeps only a window of lines (`offset`, `limit`),
 * numbered and with over-long lines cut, under an output byte budget. Memory stays bounded by the
 * window, whatever the file size: lines before the window are counted, never kept, and of a long
 * line only the shown characters are kept (its length is counted). Stops reading as soon as the
 * window is full. With `charOffset`, the window is one slice of the line at `offset`.
 */
import type { FileSystemPort } from '@dsh/contracts'

/** Limits of one window read. */
export interface LineWindowOptions {
  /** First line to keep, 1-based. */
  readonly offset: number
  /** Maximum lines to keep. */
  readonly limit: number
  /** Lines longer than this many characters are cut with a marker. */
  readonly maxLineChars: number
  /** Output budget in UTF-8 bytes; the window ends before the line that would exceed it. */
  readonly maxOutputBytes: number
  /** Show only the line at `offset`, from this 1-based character, `charPage` characters of it. */
  readonly charOffset?: number
  /** Characters of one slice in `charOffset` mode. */
  readonly charPage: number
  /** Cancellation. */
  readonly signal: AbortSignal
}

/** A cut line: where, and how long it is. */
export interface CutLine {
  readonly number: number
  readonly length: number
}

/** What was read. `endedBy` says why the window stopped. */
export interface LineWindow {
  /** Formatted lines (`<number>\t<text>`). */
  readonly lines: readonly string[]
  /** Number of the first kept line (equals `offset`). */
  readonly first: number
  /** Total lines in the file; known only when the end of the file was reached. */
  readonly totalLines?: number
  /** `eof`: the file ended; `limit`: more lines follow; `budget`: the output budget ran out. */
  readonly endedBy: 'eof' | 'limit' | 'budget'
  /** How many kept lines were cut. */
  readonly cutLines: number
  /** The first cut line, if any. */
  readonly firstCut?: CutLine
  /** In `charOffset` mode: the slice shown (1-based, inclusive) and the line's length. */
  readonly slice?: { readonly from: number; readonly to: number; readonly length: number }
  /** True when a NUL character was seen (binary content that happens to be valid UTF-8). */
  readonly binary: boolean
  /**
   * The exact text of the whole file, when the window shows all of it (it starts at line 1, reached
   * the end of the file and cut no line); absent otherwise.
   */
  readonly wholeText?: string
}

/** Formats one line: right-aligned number, tab, text (cut at `maxChars` with a marker). */
export function formatLine(number: number, text: string, maxChars: number, length = text.length): { text: string; cut: boolean } {
  const prefix = `${String(number).padStart(6)}\t`
  if (length <= maxChars) return { text: prefix + text, cut: false }
  // Do not split a surrogate pair at the cut.
  const code = text.charCodeAt(maxChars - 1)
  const end = code >= 0xd800 && code <= 0xdbff ? maxChars - 1 : maxChars
  return { text: `${prefix}${text.slice(0, end)}… [line cut: ${length - end} more characters]`, cut: true }
}

/** Reads the window of lines described by `options` from absolute `path`. */
export async function readLineWindow(fs: FileSystemPort, path: string, options: LineWindowOptions): Promise<LineWindow> {
  const { offset, limit, maxLineChars, maxOutputBytes, signal, charOffset } = options
  const lines: string[] = []
  let lineNumber = 1
  let outputBytes = 0
  let cutLines = 0
  let firstCut: CutLine | undefined
  let slice: LineWindow['slice']
  let endedBy: LineWindow['endedBy'] | undefined
  // Of the current line: the kept characters and the full length.
  let kept = ''
  let length = 0
  const keepChars = charOffset === undefined ? maxLineChars + 1 : charOffset - 1 + options.charPage
  // Kept only while the window can still show the whole file (content never exceeds the output it makes).
  let whole: string[] | undefined = offset === 1 && charOffset === undefined ? [] : undefined
  let wholeBytes = 0

  /** Ends the current line; returns false when the window is closed. */
  const endLine = (): boolean => {
    const number = lineNumber
    const text = kept
    const full = length
    lineNumber += 1
    kept = ''
    length = 0
    if (number < offset) return true
    if (charOffset !== undefined) {
      const from = Math.min(charOffset, full + 1)
      const shown = text.slice(from - 1, from - 1 + options.charPage)
      lines.push(`${String(number).padStart(6)}\t${shown}`)
      slice = { from, to: from - 1 + shown.length, length: full }
      endedBy = 'limit'
      return false
    }
    if (lines.length === limit) {
      endedBy = 'limit'
      return false
    }
    const formatted = formatLine(number, text, maxLineChars, full)
    const bytes = Buffer.byteLength(formatted.text) + 1
    if (outputBytes + bytes > maxOutputBytes && lines.length > 0) {
      endedBy = 'budget'
      return false
    }
    outputBytes += bytes
    if (formatted.cut) {
      cutLines += 1
      firstCut ??= { number, length: full }
    }
    lines.push(formatted.text)
    return true
  }

  const take = (piece: string): void => {
    if (lineNumber >= offset && kept.length < keepChars) kept += piece.slice(0, keepChars - kept.length)
    length += piece.length
  }

  let sawText = false
  const stream = fs.streamText(path, { signal, maxBytes: Number.MAX_SAFE_INTEGER })
  reading: for await (const chunk of stream) {
    if (chunk.includes('\u0000')) return { lines: [], first: offset, endedBy: 'eof', cutLines: 0, binary: true }
    sawText = true
    if (whole !== undefined) {
      wholeBytes += Buffer.byteLength(chunk)
      if (wholeBytes > maxOutputBytes) whole = undefined
      else whole.push(chunk)
    }
    let start = 0
    for (let newline = chunk.indexOf('\n'); newline !== -1; newline = chunk.indexOf('\n', start)) {
      take(chunk.slice(start, newline))
      start = newline + 1
      if (!endLine()) break reading
    }
    if (start < chunk.length) take(chunk.slice(start))
  }
  const result = { lines, first: offset, cutLines, binary: false, ...(firstCut === undefined ? {} : { firstCut }), ...(slice === undefined ? {} : { slice }) }
  if (endedBy !== undefined) return { ...result, endedBy }
  // The last line has no newline: end it unless the file ended right after one.
  if (sawText && (length > 0 || kept !== '')) {
    if (!endLine()) return { ...result, lines, cutLines, ...(firstCut === undefined ? {} : { firstCut }), ...(slice === undefined ? {} : { slice }), endedBy: endedBy ?? 'limit' }
  }
  const totalLines = lineNumber - 1
  const wholeText = whole !== undefined && cutLines === 0 ? { wholeText: whole.join('') } : {}
  return { lines, first: offset, totalLines, endedBy: 'eof', cutLines, binary: false, ...(firstCut === undefined ? {} : { firstCut }), ...wholeText }
}
