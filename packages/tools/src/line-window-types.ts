/** Options and result of one read window (`line-window.ts`). */
import type { LineIndexCache } from './line-index.ts'

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
  /** Positions kept between reads (used when the fs port has `streamTextFrom`). */
  readonly index?: LineIndexCache
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
  /**
   * In `charOffset` mode: the slice shown (1-based, inclusive) and the line's length. `from` is
   * above `length` when `charOffset` is past the end of the line (nothing is shown).
   */
  readonly slice?: { readonly from: number; readonly to: number; readonly length: number }
  /** True when a NUL character was seen (binary content that happens to be valid UTF-8). */
  readonly binary: boolean
  /**
   * The exact text of the whole file, when the window shows all of it (it starts at line 1, reached
   * the end of the file and cut no line); absent otherwise.
   */
  readonly wholeText?: string
}
