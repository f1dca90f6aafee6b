/** The last lines a server wrote on stderr, bounded (what `dsh mcp get` and crash results quote). */

/** Keeps the last `maxLines` complete lines (each cut to 500 characters) of a byte stream. */
export class StderrTail {
  readonly #lines: string[] = []
  #partial = ''
  readonly #maxLines: number

  constructor(maxLines = 20) {
    this.#maxLines = maxLines
  }

  /** Adds a chunk. */
  push(chunk: string): void {
    const parts = (this.#partial + chunk).split('\n')
    this.#partial = (parts.pop() ?? '').slice(0, 500)
    for (const line of parts) this.#add(line)
  }

  #add(line: string): void {
    const trimmed = line.replace(/\r$/, '').slice(0, 500)
    if (trimmed.trim() === '') return
    this.#lines.push(trimmed)
    if (this.#lines.length > this.#maxLines) this.#lines.shift()
  }

  /** The kept lines, the unfinished last one included. */
  lines(count = this.#maxLines): readonly string[] {
    const all = this.#partial.trim() === '' ? this.#lines : [...this.#lines, this.#partial]
    return all.slice(-count)
  }
}
