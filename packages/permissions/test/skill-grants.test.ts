// Which skill grants are in force (skill-grants.ts): the grants of the running turn and the
// `next-turn` grants recorded just before it started; none once it ended. A property test compares
// the backward scan with a forward replay of any sequence of turn boundaries and grants.
import { describe, expect, it } from 'vitest'
import * as fc from 'fast-check'
import type { SessionEvent, SessionView } from '@dsh/contracts'
import { grantsInForce } from '../src/skill-grants.ts'

type Step = { readonly kind: 'start' | 'end' | 'other' } | { readonly kind: 'grant'; readonly scope: 'turn' | 'next-turn'; readonly rule: string }

function viewOf(steps: readonly Step[]): SessionView {
  const time = '2026-12-02T00:00:00.000Z'
  const events = steps.map((step, seq): SessionEvent => {
    switch (step.kind) {
      case 'start':
        return { seq, time, type: 'turn/start', data: { turn: seq } }
      case 'end':
        return { seq, time, type: 'turn/end', data: { turn: seq, reason: 'completed' } }
      case 'other':
        return { seq, time, type: 'step/start', data: {} }
      case 'grant':
        return { seq, time, type: 'skills/grant', data: { skill: 'ship', file: '/r/SKILL.md', rules: [step.rule], scope: step.scope } }
      default: {
        const unreachable: never = step
        throw new Error(`unknown step ${JSON.stringify(unreachable)}`)
      }
    }
  })
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- the scan reads only `events`.
  return { events } as unknown as SessionView
}

/** Forward replay: what the rules say should be in force after `steps`. */
function replay(steps: readonly Step[]): string[] {
  let running = false
  let current: string[] = []
  let sinceBoundary: string[] = []
  for (const step of steps) {
    if (step.kind === 'start') {
      running = true
      current = sinceBoundary
      sinceBoundary = []
    } else if (step.kind === 'end') {
      running = false
      current = []
      sinceBoundary = []
    } else if (step.kind === 'grant') {
      if (running) current.push(step.rule)
      if (step.scope === 'next-turn') sinceBoundary.push(step.rule)
    }
  }
  return running ? [...new Set(current)].toSorted() : []
}

const texts = (steps: readonly Step[]): string[] => grantsInForce(viewOf(steps)).map((rule) => rule.text).toSorted()

const grant = (rule: string, scope: 'turn' | 'next-turn' = 'turn'): Step => ({ kind: 'grant', scope, rule })

describe('skill grants in force', () => {
  it('a grant lasts until its turn ends; a front end grant before a prompt counts for the turn it starts', () => {
    expect(texts([{ kind: 'start' }, grant('bash(git status:*)'), { kind: 'other' }])).toEqual(['bash(git status:*)'])
    expect(texts([{ kind: 'start' }, grant('bash(git status:*)'), { kind: 'end' }])).toEqual([])
    expect(texts([{ kind: 'start' }, grant('read'), { kind: 'end' }, { kind: 'start' }])).toEqual([])
    expect(texts([{ kind: 'end' }, grant('read', 'next-turn'), { kind: 'start' }])).toEqual(['read'])
    expect(texts([grant('read', 'next-turn'), { kind: 'start' }, { kind: 'end' }, { kind: 'start' }])).toEqual([])
    expect(texts([{ kind: 'start' }, { kind: 'grant', scope: 'turn', rule: 'not a rule(' }])).toEqual([])
  })

  it('the backward scan agrees with a forward replay of any sequence', () => {
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.constantFrom<Step>({ kind: 'start' }, { kind: 'end' }, { kind: 'other' }),
      fc.record({ kind: fc.constant('grant' as const), scope: fc.constantFrom('turn' as const, 'next-turn' as const), rule: fc.constantFrom('read', 'bash(git status:*)', 'grep', 'mcp__gh__*') }),
    )
    fc.assert(fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
      expect(texts(steps)).toEqual(replay(steps))
    }), { numRuns: 500 })
  })
})
