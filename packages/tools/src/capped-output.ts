/**
 * Bounded text accumulator for command output: keeps the first and the last characters up to a
 * total budget and counts what was dropped in between, so huge output costs constant memory.
 */

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

function defaultMarker(dropped: number): string {
  return `\n\n[... ${dropped} characters of output omitted ...]\n\n`
}

/** Keeps `maxChars` characters: half from the start, half from the end. */
export class CappedOutput {
  readonly #headMax: number
  readonly #tailMax: number
  #head = ''
  #tail = ''
  #dropped = 0

  readonly #marker: (dropped: number) => string

  /** `marker` renders what stands where the middle was dropped (default: the bash tool's wording). */
  constructor(maxChars: number, marker: (dropped: number) => string = defaultMarker) {
    this.#headMax = Math.floor(maxChars / 2)
    this.#tailMax = maxChars - this.#headMax
    this.#marker = marker
  }

  /** Appends text in arrival order. */
  append(text: string): void {
    let rest = text
    if (this.#head.length < this.#headMax) {
      let take = this.#headMax - this.#head.length
      if (take < rest.length && isHighSurrogate(rest.charCodeAt(take - 1))) take -= 1
      this.#head += rest.slice(0, take)
      rest = rest.slice(take)
    }
    if (rest === '') return
    this.#tail += rest
    if (this.#tail.length > this.#tailMax) {
      let cut = this.#tail.length - this.#tailMax
      if (isLowSurrogate(this.#tail.charCodeAt(cut))) cut += 1
      this.#dropped += cut
      this.#tail = this.#tail.slice(cut)
    }
  }

  /** Characters dropped from the middle. */
  get dropped(): number {
    return this.#dropped
  }

  /** The kept text, with a marker where the middle was dropped. */
  text(): string {
    if (this.#dropped === 0) return this.#head + this.#tail
    return `${this.#head}${this.#marker(this.#dropped)}${this.#tail}`
  }
}
