/**
 * The usage totals `dsh sessions show` prints: every model call the session recorded (its
 * `assistant/message` usage), input tokens with the cache-hit share, output and reasoning tokens,
 * and the cost when `model.prices` of `--config` is known (cache hits at their own price).
 */
import type { SessionEvent } from '@dsh/contracts'
import { dataOf } from '@dsh/runtime'
import type { ConfigFile } from '../config-file.ts'

/** Sums of one session. */
export interface UsageTotals {
  readonly calls: number
  readonly inputTokens: number
  readonly cacheHitTokens: number
  readonly outputTokens: number
  readonly reasoningTokens: number
}

/** Adds up the usage of every recorded model call. */
export function usageTotals(events: readonly SessionEvent[]): UsageTotals {
  let calls = 0
  let inputTokens = 0
  let cacheHitTokens = 0
  let outputTokens = 0
  let reasoningTokens = 0
  for (const event of events) {
    const usage = dataOf(event, 'assistant/message')?.usage
    if (usage === undefined) continue
    calls++
    inputTokens += usage.inputTokens
    cacheHitTokens += Math.min(usage.cacheHitTokens ?? 0, usage.inputTokens)
    outputTokens += usage.outputTokens
    reasoningTokens += usage.reasoningTokens ?? 0
  }
  return { calls, inputTokens, cacheHitTokens, outputTokens, reasoningTokens }
}

/** The lines to print (none when no call reported usage). */
export function usageLines(totals: UsageTotals, prices: NonNullable<ConfigFile['model']>['prices']): string[] {
  if (totals.calls === 0) return []
  const share = totals.inputTokens === 0 ? 0 : (100 * totals.cacheHitTokens) / totals.inputTokens
  const lines = [
    `usage ${totals.calls} model ${totals.calls === 1 ? 'call' : 'calls'}: input ${totals.inputTokens} tokens (cache hits ${totals.cacheHitTokens}, ${share.toFixed(1)}%), output ${totals.outputTokens} tokens (reasoning ${totals.reasoningTokens})`,
  ]
  if (prices !== undefined) {
    const miss = totals.inputTokens - totals.cacheHitTokens
    const cost = (miss * prices.inputPerMillion + totals.cacheHitTokens * (prices.cacheHitPerMillion ?? prices.inputPerMillion) + totals.outputTokens * prices.outputPerMillion) / 1_000_000
    lines.push(`cost ${prices.currency ?? '$'}${cost < 1 ? cost.toFixed(4) : cost.toFixed(2)} (at model.prices)`)
  }
  return lines
}
