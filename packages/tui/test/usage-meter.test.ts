// Context and cost figures come from recorded usage only, at the configured prices.
import { describe, expect, it } from 'vitest'
import type { SessionEvent } from '@dsh/contracts'
import { cacheLabel, compactCount, contextLabel, costLabel, usageFigures } from '../src/status/usage-meter.ts'
import { shortPath } from '../src/status/status-snapshot.ts'
import { statusParts } from '../src/screen/status-line.ts'

const assistant = (seq: number, usage?: { inputTokens: number; outputTokens: number; cacheHitTokens?: number }): SessionEvent => ({
  type: 'assistant/message',
  seq,
  time: '2026-12-01T00:00:00.000Z',
  data: { turn: 1, step: seq, message: { id: `a${seq}`, role: 'assistant', content: [], source: { kind: 'model' } }, ...(usage === undefined ? {} : { usage }) },
})

describe('usage figures', () => {
  it('take the context from the latest call with usage and add up the cost of every call', () => {
    const events = [assistant(1, { inputTokens: 1000, outputTokens: 100, cacheHitTokens: 400 }), assistant(2), assistant(3, { inputTokens: 3000, outputTokens: 200 }), assistant(4, { inputTokens: 0, outputTokens: 0 })]
    const prices = { inputPerMillion: 2, outputPerMillion: 8, cacheHitPerMillion: 0.5 }
    const figures = usageFigures(events, prices)
    expect(figures.contextTokens).toBe(3200)
    expect(figures.cost).toBeCloseTo((600 * 2 + 400 * 0.5 + 100 * 8 + 3000 * 2 + 200 * 8) / 1_000_000, 12)
    expect(contextLabel(figures, 128_000)).toBe('ctx 3.2k/128k (3%)')
    expect(costLabel(figures, prices)).toBe('$0.0098')
    expect(usageFigures(events, undefined)).toEqual({ contextTokens: 3200, cache: { inputTokens: 1000, hitTokens: 400 } })
    expect(costLabel(usageFigures(events, undefined), undefined)).toBeUndefined()
    expect(contextLabel(usageFigures([assistant(1)], prices), 1000)).toBeUndefined()
  })

  it('drop the context figure at a compaction until the next call reports usage; the cost stays', () => {
    const compaction: SessionEvent = { type: 'user/message', seq: 2, time: '2026-12-01T00:00:00.000Z', data: {}, surfaceOp: { op: 'replace', start: 1, end: 1 }, sourceEventSeqs: [1] }
    const prices = { inputPerMillion: 1, outputPerMillion: 1 }
    expect(usageFigures([assistant(1, { inputTokens: 9000, outputTokens: 500 }), compaction], prices)).toEqual({ cost: 9500 / 1_000_000 })
    expect(usageFigures([assistant(1, { inputTokens: 9000, outputTokens: 500 }), compaction, assistant(3, { inputTokens: 800, outputTokens: 100 })], prices).contextTokens).toBe(900)
  })

  it('give the cache-hit share over the calls that reported hits, rounded down, and nothing before any', () => {
    const events = [assistant(1, { inputTokens: 1000, outputTokens: 10, cacheHitTokens: 0 }), assistant(2, { inputTokens: 2000, outputTokens: 10, cacheHitTokens: 1990 }), assistant(3, { inputTokens: 500, outputTokens: 5 })]
    expect(usageFigures(events, undefined).cache).toEqual({ inputTokens: 3000, hitTokens: 1990 })
    expect(cacheLabel(usageFigures(events, undefined))).toBe('cache 66%')
    expect(cacheLabel(usageFigures([assistant(1, { inputTokens: 500, outputTokens: 5 })], undefined))).toBeUndefined()
    expect(statusParts({ model: 'm', cwd: '~', roots: 0, approvals: 'ask', context: 'ctx 1k/1.0M (0%)', cache: 'cache 98%', sessionId: 's' })).toEqual(['m', '~', 'ask', 'ctx 1k/1.0M (0%)', 'cache 98%'])
  })

  it('format counts, paths and the status parts', () => {
    expect([850, 1234, 12_345, 1_500_000].map(compactCount)).toEqual(['850', '1.2k', '12k', '1.5M'])
    expect(shortPath('/home/me/src/app', '/home/me')).toBe('~/src/app')
    expect(shortPath('/home/meow/x', '/home/me')).toBe('/home/meow/x')
    expect(shortPath('/very/long/path/that/goes/on/and/on/forever/here', undefined)).toBe('…/forever/here'.replace('…/', '…/on/'))
    expect(statusParts({ model: 'deepseek:deepseek-v4-flash', cwd: '~/app', roots: 2, approvals: 'ask', context: 'ctx 1k/128k (1%)', cost: '€0.01', sessionId: 's' })).toEqual(['deepseek:deepseek-v4-flash', '~/app', '+2 roots', 'ask', 'ctx 1k/128k (1%)', '€0.01'])
  })
})
