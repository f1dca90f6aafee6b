/**
 * Deterministic pseudo-random numbers for the benchmark fixtures. The generator is a 32-bit
 * xorshift (shifts 13/17/5) whose state is first scrambled from the seed with an integer hash,
 * so nearby seeds give unrelated streams. Statistical quality is irrelevant here; what matters is
 * that one seed always yields the same monorepo on every machine and Node version.
 */

/** A seeded stream of numbers plus the few helpers the generator needs. */
export interface SeededRandom {
  /** Uniform float in [0, 1). */
  next(): number
  /** Uniform integer in [0, bound). */
  below(bound: number): number
  /** Uniform integer in [low, high] (both inclusive). */
  between(low: number, high: number): number
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T
  /** A shuffled copy. */
  shuffled<T>(items: readonly T[]): T[]
}

function scramble(seed: number): number {
  let x = (seed ^ 0x9e3779b9) >>> 0
  x = Math.imul(x ^ (x >>> 16), 0x21f0aaad) >>> 0
  x = Math.imul(x ^ (x >>> 15), 0x735a2d97) >>> 0
  x = (x ^ (x >>> 15)) >>> 0
  // xorshift has one fixed point (0); any other state cycles through all 2^32 - 1 values.
  return x === 0 ? 0x6d2b79f5 : x
}

/** Creates the stream for `seed` (any integer). */
export function seededRandom(seed: number): SeededRandom {
  let state = scramble(Math.trunc(seed))
  const next = (): number => {
    state ^= state << 13
    state >>>= 0
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    return state / 0x1_0000_0000
  }
  const below = (bound: number): number => Math.floor(next() * bound)
  return {
    next,
    below,
    between: (low, high) => low + below(high - low + 1),
    pick<T>(items: readonly T[]): T {
      const index = below(items.length)
      for (const [i, item] of items.entries()) if (i === index) return item
      throw new RangeError('pick() needs a non-empty list')
    },
    shuffled<T>(items: readonly T[]): T[] {
      // Decorate with random keys and sort: no index juggling, same result for the same seed.
      return items
        .map((item) => ({ item, key: next() }))
        .toSorted((a, b) => a.key - b.key)
        .map(({ item }) => item)
    },
  }
}
