/**
 * Token and cost figures from what the session recorded: the context in use is the prompt plus
 * completion tokens of the latest `assistant/message` that reported usage (what the next request
 * starts from), and the cost adds up every recorded call at the configured prices (cache hits at
 * their own price when one is given), and the cache-hit share is the session's hit tokens over its
 * prompt tokens, over the calls that reported hits (DeepSeek does on every call). Nothing is estimated: no usage recorded, no figure; and a
 * compaction (an event that replaces part of the visible surface) drops the context figure until
 * the next call reports one, since the history it measured is gone.
 */
import type { SessionEvent } from '@dsh/contracts'
import { dataOf } from '@dsh/runtime'

/** Prices in currency units per million tokens. */
export interface ModelPrices {
  /** Prompt tokens not served from the cache. */
  readonly inputPerMillion: number
  /** Completion tokens. */
  readonly outputPerMillion: number
  /** Prompt tokens served from the provider's cache (else charged as input). */
  readonly cacheHitPerMillion?: number | undefined
  /** Currency symbol or code shown before the figure (default `$`). */
  readonly currency?: string | undefined
}

/** What the status line shows about usage. */
export interface UsageFigures {
  /** Tokens of the latest recorded call (prompt + completion); undefined before any usage and after a compaction until the next call. */
  readonly contextTokens?: number
  /** Sum of all recorded calls at the prices; undefined without prices or usage. */
  readonly cost?: number
  /** Prompt tokens of the calls that reported cache figures, and how many of them were cache hits; undefined when no call reported any. */
  readonly cache?: { readonly inputTokens: number; readonly hitTokens: number }
}

/** Reads the figures from a session's events. */
export function usageFigures(events: readonly SessionEvent[], prices: ModelPrices | undefined): UsageFigures {
  let contextTokens: number | undefined
  let cost: number | undefined
  let cache: { inputTokens: number; hitTokens: number } | undefined
  for (const event of events) {
    if (typeof event.surfaceOp === 'object' && event.surfaceOp.op === 'replace') contextTokens = undefined
    const usage = dataOf(event, 'assistant/message')?.usage
    if (usage === undefined || usage.inputTokens + usage.outputTokens === 0) continue
    contextTokens = usage.inputTokens + usage.outputTokens
    if (usage.cacheHitTokens !== undefined) {
      cache ??= { inputTokens: 0, hitTokens: 0 }
      cache.inputTokens += usage.inputTokens
      cache.hitTokens += Math.min(usage.cacheHitTokens, usage.inputTokens)
    }
    if (prices === undefined) continue
    const hits = Math.min(usage.cacheHitTokens ?? 0, usage.inputTokens)
    const hitPrice = prices.cacheHitPerMillion ?? prices.inputPerMillion
    cost = (cost ?? 0) + ((usage.inputTokens - hits) * prices.inputPerMillion + hits * hitPrice + usage.outputTokens * prices.outputPerMillion) / 1_000_000
  }
  return { ...(contextTokens === undefined ? {} : { contextTokens }), ...(cost === undefined ? {} : { cost }), ...(cache === undefined ? {} : { cache }) }
}

/** `cache 97%`: the session's share of prompt tokens served from the provider's cache; undefined when no call reported it. */
export function cacheLabel(figures: UsageFigures): string | undefined {
  const cache = figures.cache
  if (cache === undefined || cache.inputTokens === 0) return undefined
  return `cache ${Math.floor((cache.hitTokens / cache.inputTokens) * 100)}%`
}

/** `12.3k`, `850`, `1.2M`. */
export function compactCount(count: number): string {
  if (count < 1000) return String(count)
  if (count < 1_000_000) return `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`
  return `${(count / 1_000_000).toFixed(1)}M`
}

/** `ctx 12.3k/128k (10%)`, or undefined before any usage. */
export function contextLabel(figures: UsageFigures, window: number): string | undefined {
  if (figures.contextTokens === undefined) return undefined
  const share = window > 0 ? ` (${Math.round((figures.contextTokens / window) * 100)}%)` : ''
  return `ctx ${compactCount(figures.contextTokens)}/${compactCount(window)}${share}`
}

/** `$0.0123`, or undefined when there is no cost figure. */
export function costLabel(figures: UsageFigures, prices: ModelPrices | undefined): string | undefined {
  if (figures.cost === undefined) return undefined
  return `${prices?.currency ?? '$'}${figures.cost < 1 ? figures.cost.toFixed(4) : figures.cost.toFixed(2)}`
}
