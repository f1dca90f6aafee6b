/**
 * Compares the plugin's measured port calls, step by step, with the oracle's expectations, and
 * summarises them per step kind (discovery, first revisit, settled). The target applies
 * to every step without a new directory: stat-like calls <= examined directories + loaded files,
 * and no read. The summary also says how much of any excess the racy-timestamp confirmation
 * (a once-seen directory probed in full again, its files read again) accounts for.
 */
import { reads, statLike, type CallCounts } from './counting-fs.ts'
import type { PassExpectation } from './instruction-oracle.ts'
import { median, sum } from './stats.ts'

/** One step, measured against its expectation. */
export interface StepComparison {
  /** 1-based step number (0 for the baseline). */
  readonly step: number
  readonly expected: PassExpectation
  readonly measured: CallCounts
  readonly statLike: number
  readonly reads: number
  /** Stat-like calls above the target bound (negative: below it). */
  readonly overBound: number
}

/** Per-kind summary. */
export interface KindSummary {
  readonly kind: PassExpectation['kind']
  readonly steps: number
  readonly medianExamined: number
  readonly medianLoaded: number
  readonly medianStatLike: number
  readonly medianStat: number
  readonly medianLstat: number
  readonly medianResolve: number
  readonly medianMinimum: number
  readonly medianBound: number
  readonly reads: number
  readonly minimumReads: number
  /** Steps whose stat-like calls exceed the target bound, or that read anything. */
  readonly stepsOverTarget: number
  readonly worstOverBound: number
  /** Steps whose excess is not covered by the racy-timestamp confirmation allowance. */
  readonly stepsUnexplained: number
}

/** Pairs expectations with measurements (equal lengths; index 0 may be the baseline). */
export function compareSteps(expected: readonly PassExpectation[], measured: readonly CallCounts[], firstStep: number): StepComparison[] {
  if (expected.length !== measured.length) throw new Error(`expected ${expected.length} measured steps, got ${measured.length}`)
  return expected.map((expectation, i) => {
    const counts = measured[i]
    if (counts === undefined) throw new Error(`no measurement for step ${firstStep + i}`)
    return { step: firstStep + i, expected: expectation, measured: counts, statLike: statLike(counts), reads: reads(counts), overBound: statLike(counts) - expectation.targetBound }
  })
}

/** True when a step without new directories meets the target. */
export const meetsTarget = (step: StepComparison): boolean => step.overBound <= 0 && step.reads === 0

/**
 * True when a step's excess fits the racy-timestamp confirmation allowance, plus one `resolve` per
 * re-read file (a full probe checks each present file's canonical path against the trusted roots).
 */
export const explainedBySettle = (step: StepComparison): boolean =>
  step.statLike <= step.expected.targetBound + step.expected.settleStatLike + step.expected.settleReads && step.reads <= step.expected.settleReads

/** Summaries in the order discovery, first-revisit, settled (kinds without steps are left out). */
export function summarize(steps: readonly StepComparison[]): KindSummary[] {
  const kinds: PassExpectation['kind'][] = ['discovery', 'first-revisit', 'settled']
  return kinds.flatMap((kind) => {
    const of = steps.filter((step) => step.expected.kind === kind)
    if (of.length === 0) return []
    const over = kind === 'discovery' ? [] : of.filter((step) => !meetsTarget(step))
    return [
      {
        kind,
        steps: of.length,
        medianExamined: median(of.map((s) => s.expected.examinedDirectories)),
        medianLoaded: median(of.map((s) => s.expected.loadedFiles)),
        medianStatLike: median(of.map((s) => s.statLike)),
        medianStat: median(of.map((s) => s.measured.stat)),
        medianLstat: median(of.map((s) => s.measured.lstat)),
        medianResolve: median(of.map((s) => s.measured.resolve)),
        medianMinimum: median(of.map((s) => s.expected.minStatLike)),
        medianBound: median(of.map((s) => s.expected.targetBound)),
        reads: sum(of.map((s) => s.reads)),
        minimumReads: sum(of.map((s) => s.expected.minReads)),
        stepsOverTarget: over.length,
        worstOverBound: Math.max(0, ...over.map((s) => s.overBound)),
        stepsUnexplained: over.filter((s) => !explainedBySettle(s)).length,
      },
    ]
  })
}
