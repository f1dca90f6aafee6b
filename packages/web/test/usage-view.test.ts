// The page's usage figures: context of the latest call, cache-hit share, and the cost only with prices.
import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '@dsh/contracts'
import { usageView } from '../src/usage-view.ts'

const call = (seq: number, inputTokens: number, outputTokens: number, cacheHitTokens: number): SessionEvent => ({
  type: 'assistant/message',
  seq,
  time: '',
  data: { turn: 1, step: seq, message: { id: String(seq), role: 'assistant', content: [], source: { kind: 'model' } }, usage: { inputTokens, outputTokens, cacheHitTokens } },
})

describe('usage view', () => {
  it('counts the cost as the chat does: misses at the input price, hits at the cache price, completions at the output price', () => {
    const events = [call(1, 1000, 200, 750), call(2, 2000, 100, 2000)]
    expect(usageView(events, { contextWindow: 100_000 })).toEqual({ contextWindow: 100_000, contextTokens: 2100, cacheHitShare: 2750 / 3000 })
    const priced = usageView(events, { contextWindow: 100_000, prices: { inputPerMillion: 100, outputPerMillion: 200, cacheHitPerMillion: 10, currency: '¥' } })
    expect(priced.cost?.currency).toBe('¥')
    expect(priced.cost?.amount).toBeCloseTo((250 * 100 + 750 * 10 + 200 * 200 + 2000 * 10 + 100 * 200) / 1_000_000, 10)
    expect(usageView(events, { contextWindow: 0, prices: { inputPerMillion: 1, outputPerMillion: 1 } }).cost).toEqual({ amount: (250 + 750 + 200 + 2000 + 100) / 1_000_000, currency: '$' })
  })
})
