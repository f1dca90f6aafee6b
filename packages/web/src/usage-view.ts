/**
 * The usage figures the page shows under the chat, from what the session recorded (nothing is
 * estimated): the context in use is the prompt plus completion tokens of the latest model call that
 * reported usage, against the model's window; the cache-hit share is the part of all recorded
 * prompt tokens the provider served from its cache; the cost, when the model's prices are known,
 * is what the recorded calls cost (prompt tokens not from the cache, cache hits at their price,
 * completion tokens), as the chat's status line counts it. A compaction drops the context figure
 * until the next call reports one (the history it measured is gone).
 */
import type { SessionEvent } from '@dsh/contracts'
import { dataOf } from '@dsh/runtime'

/** What the page shows; absent fields are unknown. */
export interface UsageView {
  /** Tokens of the latest recorded call (prompt + completion). */
  readonly contextTokens?: number
  /** The model's context window in tokens. */
  readonly contextWindow: number
  /** Share (0–1) of recorded prompt tokens that were cache hits; absent before any usage. */
  readonly cacheHitShare?: number
  /** What the recorded calls cost; absent without prices or before any usage. */
  readonly cost?: { readonly amount: number; readonly currency: string }
}

/** Prices per million tokens (the config's `model.prices`). */
export interface UsagePrices {
  readonly inputPerMillion: number
  readonly outputPerMillion: number
  /** Prompt tokens served from the cache (else charged as input). */
  readonly cacheHitPerMillion?: number | undefined
  /** Shown before the figure (default `$`). */
  readonly currency?: string | undefined
}

/** The figures of a session's events. */
export function usageView(events: readonly SessionEvent[], options: { readonly contextWindow: number; readonly prices?: UsagePrices | undefined }): UsageView {
  const { contextWindow, prices } = options
  let contextTokens: number | undefined
  let input = 0
  let hits = 0
  let cost: number | undefined
  for (const event of events) {
    if (typeof event.surfaceOp === 'object' && event.surfaceOp.op === 'replace') contextTokens = undefined
    const usage = dataOf(event, 'assistant/message')?.usage
    if (usage === undefined || usage.inputTokens + usage.outputTokens === 0) continue
    contextTokens = usage.inputTokens + usage.outputTokens
    input += usage.inputTokens
    const callHits = Math.min(usage.cacheHitTokens ?? 0, usage.inputTokens)
    hits += callHits
    if (prices !== undefined) cost = (cost ?? 0) + ((usage.inputTokens - callHits) * prices.inputPerMillion + callHits * (prices.cacheHitPerMillion ?? prices.inputPerMillion) + usage.outputTokens * prices.outputPerMillion) / 1_000_000
  }
  return {
    contextWindow,
    ...(contextTokens === undefined ? {} : { contextTokens }),
    ...(input === 0 ? {} : { cacheHitShare: hits / input }),
    ...(cost === undefined ? {} : { cost: { amount: cost, currency: prices?.currency ?? '$' } }),
  }
}
