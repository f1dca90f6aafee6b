/**
 * The output of a running tool call as its row shows it: the last lines of what the command has
 * printed so far, kept in a bounded tail (the start of a long output is dropped, with a count of
 * the lines that went), carriage-return progress bars shown as their latest state, and control
 * characters removed.
 */
import { sanitize } from '../text-safety.ts'

/** Characters of output kept while a call runs. */
export const keptOutputChars = 16_384

/** A bounded tail of a running call's output. */
export class LiveOutput {
  #tail = ''
  #droppedLines = 0

  /** Adds printed text. */
  append(text: string): void {
    this.#tail += text
    if (this.#tail.length <= keptOutputChars) return
    const cut = this.#tail.length - keptOutputChars
    const newline = this.#tail.indexOf('\n', cut)
    const from = newline < 0 ? cut : newline + 1
    this.#droppedLines += countLines(this.#tail.slice(0, from))
    this.#tail = this.#tail.slice(from)
  }

  /** True once something was printed. */
  get empty(): boolean {
    return this.#tail === '' && this.#droppedLines === 0
  }

  /** The last `count` lines (each its text after the last carriage return), and how many came before them. */
  last(count: number): { readonly lines: readonly string[]; readonly earlier: number } {
    const all = this.#tail.replace(/\n$/, '').split('\n')
    const lines = all.slice(-count).map((line) => sanitize(line.slice(line.lastIndexOf('\r') + 1)))
    return { lines, earlier: this.#droppedLines + Math.max(0, all.length - count) }
  }
}

function countLines(text: string): number {
  let count = 0
  for (const char of text) if (char === '\n') count += 1
  return count
}
