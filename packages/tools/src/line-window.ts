/**
 * Streams a text file through the fs port and keeps only a window of lines (`offset`, `limit`),
 * numbered and with over-long lines cut, under an output byte budget. Stops reading as soon as
 * the window is full, so the start of a huge file costs no more than its first chunks.
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
  /** Hard cap on bytes scanned (passed to the port as `maxBytes`). */
  readonly maxScanBytes: number
  /** Cancellation. */
  readonly signal: AbortSignal
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
  /** True when a NUL character was seen (binary content that happens to be valid UTF-8). */
  readonly binary: boolean
  /**
   * The exact text of the whole file, when the window shows all of it (it starts at line 1, reached
   * the end of the file and cut no line); absent otherwise.
   */
  readonly wholeText?: string
}

/** Formats one line: right-aligned number, tab, text (cut at `maxChars` with a marker). */
export function formatLine(number: number, text: string, maxChars: number): { text: string; cut: boolean } {
  const prefix = `${String(number).padStart(6)}\t`
  if (text.length <= maxChars) return { text: prefix + text, cut: false }
  // Do not split a surrogate pair at the cut.
  const code = text.charCodeAt(maxChars - 1)
  const end = code >= 0xd800 && code <= 0xdbff ? maxChars - 1 : maxChars
  return { text: `${prefix}${text.slice(0, end)}… [line cut: ${text.length - end} more characters]`, cut: true }
}

/** Reads the window of lines described by `options` from absolute `path`. */
export async function readLineWindow(fs: FileSystemPort, path: string, options: LineWindowOptions): Promise<LineWindow> {
  const { offset, limit, maxLineChars, maxOutputBytes, signal } = options
  const lines: string[] = []
  let lineNumber = 0
  let outputBytes = 0
  let cutLines = 0
  let pending = ''
  let endedBy: LineWindow['endedBy'] | undefined
  // Kept only while the window can still show the whole file (content never exceeds the output it makes).
  let whole: string[] | undefined = offset === 1 ? [] : undefined
  let wholeBytes = 0

  /** Takes one complete line; returns false when the window is closed. */
  const take = (text: string): boolean => {
    lineNumber += 1
    if (lineNumber < offset) return true
    if (lines.length === limit) {
      endedBy = 'limit'
      return false
    }
    const formatted = formatLine(lineNumber, text, maxLineChars)
    const bytes = Buffer.byteLength(formatted.text) + 1
    if (outputBytes + bytes > maxOutputBytes && lines.length > 0) {
      endedBy = 'budget'
      return false
    }
    outputBytes += bytes
    if (formatted.cut) cutLines += 1
    lines.push(formatted.text)
    return true
  }

  const stream = fs.streamText(path, { signal, maxBytes: options.maxScanBytes })
  reading: for await (const chunk of stream) {
    if (chunk.includes('\u0000')) return { lines: [], first: offset, endedBy: 'eof', cutLines: 0, binary: true }
    if (whole !== undefined) {
      wholeBytes += Buffer.byteLength(chunk)
      if (wholeBytes > maxOutputBytes) whole = undefined
      else whole.push(chunk)
    }
    pending += chunk
    let start = 0
    for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n', start)) {
      if (!take(pending.slice(start, newline))) break reading
      start = newline + 1
    }
    pending = pending.slice(start)
  }
  if (endedBy !== undefined) return { lines, first: offset, endedBy, cutLines, binary: false }
  if (pending !== '' && !take(pending)) return { lines, first: offset, endedBy: endedBy ?? 'limit', cutLines, binary: false }
  const wholeText = whole !== undefined && cutLines === 0 ? { wholeText: whole.join('') } : {}
  return { lines, first: offset, totalLines: lineNumber, endedBy: 'eof', cutLines, binary: false, ...wholeText }
}
