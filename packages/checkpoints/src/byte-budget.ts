/**
 * The per-session budget of stored checkpoint bytes (`checkpoints.maxBytes`, default 1 GiB): what
 * is already stored counts, each new object spends, and a file that would overrun is not kept.
 */

/** Default budget per session (1 GiB). */
export const DEFAULT_MAX_BYTES = 1024 * 1024 * 1024

/** A spendable byte budget. */
export class ByteBudget {
  #used: number
  #exceeded = false

  constructor(readonly maxBytes: number, used: number) {
    this.#used = used
  }

  /** Bytes stored so far. */
  get used(): number {
    return this.#used
  }

  /** Whether a file was refused since the last {@link takeExceeded}. */
  takeExceeded(): boolean {
    const was = this.#exceeded
    this.#exceeded = false
    return was
  }

  /** Whether `bytes` more fit; records a refusal when they do not. */
  allows(bytes: number): boolean {
    if (this.#used + bytes <= this.maxBytes) return true
    this.#exceeded = true
    return false
  }

  /** Counts newly stored bytes. */
  spend(bytes: number): void {
    this.#used += bytes
  }
}
