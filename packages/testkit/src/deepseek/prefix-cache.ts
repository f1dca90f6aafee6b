/**
 * The imitation's model of DeepSeek's "Context Caching on Disk" (research notes §4.1): every
 * request stores a unit at the end of its prompt and one at the end of prompt + output; a prefix
 * shared by two requests becomes a unit of its own. A request hits the longest stored unit that
 * is a prefix of its prompt, in full or not at all; everything after it is a miss. Units are
 * stored after the request is answered, so a request never hits itself.
 */
import { prefixTokensOf, tokensOf } from './prompt-rendering.ts'
import type { DeepSeekCacheReport } from './deepseek-types.ts'

/** Stored units of one server. */
export class PrefixCache {
  readonly #units = new Set<string>()
  readonly #prompts: string[] = []

  /** Hit and miss tokens of `prompt` against the stored units. */
  lookup(prompt: string): DeepSeekCacheReport {
    let best = ''
    for (const unit of this.#units) if (unit.length > best.length && prompt.startsWith(unit)) best = unit
    const promptTokens = tokensOf(prompt)
    const hitTokens = Math.min(prefixTokensOf(best), promptTokens)
    return { promptTokens, hitTokens, missTokens: promptTokens - hitTokens }
  }

  /** Stores the units of an answered request (`answered` is undefined for a cut stream). */
  store(prompt: string, answered: string | undefined): void {
    // The most recent prompts: a shared prefix of older ones is already stored from their time.
    for (const earlier of this.#prompts.slice(-16)) {
      const shared = commonPrefix(earlier, prompt)
      if (shared.length > 0) this.#units.add(shared)
    }
    this.#prompts.push(prompt)
    this.#units.add(prompt)
    if (answered !== undefined) this.#units.add(answered)
  }
}

function commonPrefix(a: string, b: string): string {
  const length = Math.min(a.length, b.length)
  let index = 0
  while (index < length && a.charCodeAt(index) === b.charCodeAt(index)) index++
  return a.slice(0, index)
}
