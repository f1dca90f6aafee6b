/**
 * The usage figures the page shows under the chat, from what the session recorded (nothing is
 * estimated): the context in use is the prompt plus completion tokens of the latest model call that
 * reported usage, against the model's window; the cache-hit share is the part of all recorded
 * prompt tokens the provider served from its cache. A compaction drops the context figure until the
 * next call reports one (the history it measured is gone).
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
}

/** The figures of a session's events. */
export function usageView(events: readonly SessionEvent[], contextWindow: number): UsageView {
  let contextTokens: number | undefined
  let input = 0
  let hits = 0
  for (const event of events) {
    if (typeof event.surfaceOp === 'object' && event.surfaceOp.op === 'replace') contextTokens = undefined
    const usage = dataOf(event, 'assistant/message')?.usage
    if (usage === undefined || usage.inputTokens + usage.outputTokens === 0) continue
    contextTokens = usage.inputTokens + usage.outputTokens
    input += usage.inputTokens
    hits += Math.min(usage.cacheHitTokens ?? 0, usage.inputTokens)
  }
  return { contextWindow, ...(contextTokens === undefined ? {} : { contextTokens }), ...(input === 0 ? {} : { cacheHitShare: hits / input }) }
}
