/**
 * Bounded text capture: keeps the head and the tail of a stream of chunks and counts what it
 * dropped, so a snippet printing gigabytes costs at most about twice the limit in memory.
 */

/** The marker put where text was dropped. Keep identical to the one in `bootstrap-source.ts`. */
export function omissionMarker(omitted: number): string {
  return `\n[… ${omitted} characters omitted …]\n`
}

/** Keeps the first and last halves of `text` when it is longer than `max`, with a marker between. */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text
  const head = Math.floor(max / 2)
  const tail = max - head
  return text.slice(0, head) + omissionMarker(text.length - head - tail) + text.slice(text.length - tail)
}

/** Head + tail capture of streamed text. */
export class OutputCapture {
  readonly #headLimit: number
  readonly #tailLimit: number
  #head = ''
  #tail = ''
  #total = 0

  /** `limit`: characters kept at most (half head, half tail). */
  constructor(limit: number) {
    this.#headLimit = Math.floor(limit / 2)
    this.#tailLimit = limit - this.#headLimit
  }

  /** Characters received so far. */
  get total(): number {
    return this.#total
  }

  /** Adds a chunk. */
  push(chunk: string): void {
    this.#total += chunk.length
    let rest = chunk
    const room = this.#headLimit - this.#head.length
    if (room > 0) {
      this.#head += rest.slice(0, room)
      rest = rest.slice(room)
    }
    if (rest === '') return
    this.#tail += rest
    // Trim lazily: only when the tail has grown to twice its limit, keeping pushes amortised O(chunk).
    if (this.#tail.length > 2 * this.#tailLimit) this.#tail = this.#tail.slice(-this.#tailLimit)
  }

  /** The captured text: everything when it fit, else head + marker + tail. */
  text(): string {
    const tail = this.#tail.length > this.#tailLimit ? this.#tail.slice(-this.#tailLimit) : this.#tail
    const omitted = this.#total - this.#head.length - tail.length
    return omitted > 0 ? this.#head + omissionMarker(omitted) + tail : this.#head + tail
  }
}
