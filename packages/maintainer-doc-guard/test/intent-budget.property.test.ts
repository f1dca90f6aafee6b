// Property: the staged intent judgement of one turn is nudges, then denials, then giving up, and
// never exceeds its budgets, whatever the limits and however many unexplained calls arrive.
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { nextIntentStep, type IntentBudgets, type IntentStep } from '../src/intent-decision.ts'

const limits = fc.record({
  nudgeEnabled: fc.boolean(),
  grace: fc.integer({ min: 0, max: 10 }),
  maxPerTurn: fc.integer({ min: 0, max: 10 }),
  maxBlocksPerTurn: fc.integer({ min: 0, max: 10 }),
})

const rank: Record<IntentStep, number> = { nudge: 0, 'nudge-capped': 0, deny: 1, 'give-up': 2 }

describe('intent budget', () => {
  it('walks nudge → deny → give up within its limits', () => {
    fc.assert(
      fc.property(limits, fc.integer({ min: 0, max: 5 }), fc.integer({ min: 1, max: 40 }), (limit, nudgesSpent, calls) => {
        let budgets: IntentBudgets = { deviations: 0, blocks: 0, nudges: Math.min(nudgesSpent, limit.maxPerTurn) }
        const steps: IntentStep[] = []
        for (let index = 0; index < calls; index++) {
          const next = nextIntentStep(budgets, limit)
          steps.push(next.step)
          budgets = next.budgets
        }
        const grace = limit.nudgeEnabled ? limit.grace : 0
        const count = (step: IntentStep) => steps.filter((item) => item === step).length
        expect(count('deny')).toBe(Math.min(limit.maxBlocksPerTurn, Math.max(0, calls - grace)))
        expect(count('nudge') + count('nudge-capped')).toBe(Math.min(grace, calls))
        expect(budgets.nudges).toBeLessThanOrEqual(Math.max(limit.maxPerTurn, nudgesSpent))
        expect(steps.map((step) => rank[step])).toEqual(steps.map((step) => rank[step]).toSorted((a, b) => a - b))
        expect(budgets.deviations).toBe(calls)
      }),
    )
  })
})
