/**
 * Byte offsets of character positions in a decoded text chunk, for read's line index. An ASCII
 * chunk needs no counting; otherwise the UTF-8 length is measured from the last asked position,
 * so asking positions in increasing order costs one pass over the chunk.
 */

/** Byte offsets within one chunk, which starts at file byte `base`. */
export class ChunkBytes {
  readonly #chunk: string
  readonly #base: number
  readonly #ascii: boolean
  /** Byte length of the whole chunk. */
  readonly length: number
  #char = 0
  #byte = 0

  constructor(chunk: string, base: number) {
    this.#chunk = chunk
    this.#base = base
    this.length = Buffer.byteLength(chunk)
    this.#ascii = this.length === chunk.length
  }

  /** The file byte offset where character `index` of the chunk starts (indexes asked in increasing order are cheapest). */
  at(index: number): number {
    if (this.#ascii) return this.#base + index
    if (index < this.#char) {
      this.#char = 0
      this.#byte = 0
    }
    this.#byte += Buffer.byteLength(this.#chunk.slice(this.#char, index))
    this.#char = index
    return this.#base + this.#byte
  }
}
