// Ctrl-C, Esc and Ctrl-D: a cancel or a cleared line never counts toward exit; only two Ctrl-C at
// an idle empty prompt within the window (nothing typed between) exit; two Esc there within the
// rewind window open the rewind picker (a fake clock: the gaps are given, nothing waits).
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decideKey, exitWindowMs, rewindWindowMs, type PolicyKey } from '../src/interrupt-policy.ts'

interface Press {
  readonly key: PolicyKey
  readonly running: boolean
  readonly inputEmpty: boolean
  readonly gap: number
}

const press = fc.record({ key: fc.constantFrom<PolicyKey>('ctrl-c', 'escape', 'ctrl-d', 'other'), running: fc.boolean(), inputEmpty: fc.boolean(), gap: fc.integer({ min: 0, max: 5000 }) })

/** Runs presses through the policy the way the front ends do; returns the index of the first press with `wanted` (the exit by default), if any. */
function run(presses: readonly Press[], wanted: 'exit' | 'open-rewind' = 'exit'): number | undefined {
  let armedAt: number | undefined
  let escapedAt: number | undefined
  let now = 0
  for (const [index, p] of presses.entries()) {
    now += p.gap
    const decision = decideKey(p.key, { running: p.running, inputEmpty: p.inputEmpty, ...(armedAt === undefined ? {} : { armedAt }), ...(escapedAt === undefined ? {} : { escapedAt }) }, now)
    armedAt = decision.armedAt
    escapedAt = decision.escapedAt
    if (decision.action === wanted) return index
  }
  return undefined
}

describe('interrupt policy', () => {
  it('an exit by Ctrl-C needs the previous key to be a Ctrl-C at an idle empty prompt, within the window', () => {
    fc.assert(
      fc.property(fc.array(press, { maxLength: 30 }), (presses) => {
        const exit = run(presses)
        if (exit === undefined) return true
        const last = presses[exit]
        if (last?.key === 'ctrl-d') return last.inputEmpty
        const previous = presses[exit - 1]
        return last?.key === 'ctrl-c' && !last.running && last.inputEmpty && previous?.key === 'ctrl-c' && !previous.running && previous.inputEmpty && last.gap <= exitWindowMs
      }),
    )
  })

  it('the rewind picker opens only on an Esc right after an Esc, both at an idle empty prompt, within the window', () => {
    fc.assert(
      fc.property(fc.array(press, { maxLength: 30 }), (presses) => {
        const opened = run(presses, 'open-rewind')
        if (opened === undefined) return true
        const last = presses[opened]
        const previous = presses[opened - 1]
        return last?.key === 'escape' && !last.running && last.inputEmpty && previous?.key === 'escape' && !previous.running && previous.inputEmpty && last.gap <= rewindWindowMs
      }),
    )
  })

  it('Ctrl-C while something runs cancels; with text in the input it clears it; Esc clears, then cancels', () => {
    expect(decideKey('ctrl-c', { running: true, inputEmpty: true, armedAt: 0 }, 10)).toEqual({ action: 'cancel' })
    expect(decideKey('ctrl-c', { running: false, inputEmpty: false, armedAt: 0 }, 10)).toEqual({ action: 'clear-input' })
    expect(decideKey('ctrl-c', { running: false, inputEmpty: true }, 10)).toEqual({ action: 'arm-exit', armedAt: 10 })
    expect(decideKey('ctrl-c', { running: false, inputEmpty: true, armedAt: 10 }, 10 + exitWindowMs)).toEqual({ action: 'exit' })
    expect(decideKey('ctrl-c', { running: false, inputEmpty: true, armedAt: 10 }, 11 + exitWindowMs)).toEqual({ action: 'arm-exit', armedAt: 11 + exitWindowMs })
    expect(decideKey('escape', { running: true, inputEmpty: false }, 0)).toEqual({ action: 'clear-input' })
    expect(decideKey('escape', { running: true, inputEmpty: true }, 0)).toEqual({ action: 'cancel' })
    expect(decideKey('escape', { running: false, inputEmpty: true }, 5)).toEqual({ action: 'arm-rewind', escapedAt: 5 })
    expect(decideKey('escape', { running: false, inputEmpty: true, escapedAt: 5 }, 5 + rewindWindowMs)).toEqual({ action: 'open-rewind' })
    expect(decideKey('escape', { running: false, inputEmpty: true, escapedAt: 5 }, 6 + rewindWindowMs)).toEqual({ action: 'arm-rewind', escapedAt: 6 + rewindWindowMs })
    expect(decideKey('ctrl-d', { running: false, inputEmpty: false }, 0)).toEqual({ action: 'pass' })
  })

  it('the sequence of the issue: cancel, a half-typed line cleared, then one Ctrl-C does not exit', () => {
    expect(run([
      { key: 'ctrl-c', running: true, inputEmpty: true, gap: 0 },
      { key: 'other', running: false, inputEmpty: false, gap: 100 },
      { key: 'ctrl-c', running: false, inputEmpty: false, gap: 100 },
      { key: 'ctrl-c', running: false, inputEmpty: true, gap: 100 },
    ])).toBeUndefined()
  })
})
