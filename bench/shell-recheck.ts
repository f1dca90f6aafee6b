/**
 * The cost of decision D8 (issue 8 item 6): the benchmark session with a `bash` step (`true`, which
 * changes nothing) after every fifth read, plugin on and off, alternating. The read step after a
 * shell step starts with the plugin's re-check of every loaded scope in its pre-step; this measures
 * that pre-step (median over rounds of each round's median) and checks that the plugin's port calls
 * on those steps exceed the same steps without shell steps by exactly the oracle's re-check stats
 * (one per loaded directory and per loaded file), with no read.
 */
import { statLike, reads, type CallCounts } from './counting-fs.ts'
import type { GeneratedMonorepo } from './generate-monorepo.ts'
import { InstructionOracle } from './instruction-oracle.ts'
import { runSession, type SessionMeasurement } from './session-runner.ts'
import { median } from './stats.ts'

/** What the measurement found. */
export interface ShellRecheckResult {
  readonly rounds: number
  readonly shells: number
  /** Median re-check pre-step, plugin on / off (off: the loop's own pre-step). */
  readonly recheckOn: number
  readonly recheckOff: number
  /** Median stats of one re-check, per the oracle. */
  readonly medianRecheckStats: number
  /** Every step after a shell step costs exactly the re-check on top, and no read. */
  readonly exact: boolean
}

/** Runs the shell-step sessions; `plain` is the plugin-on step counts of the same reads without shell steps. */
export async function measureShellRecheck(repo: GeneratedMonorepo, plain: readonly CallCounts[], rounds: number, modelStepMs: number): Promise<ShellRecheckResult> {
  const shellAfter = new Set(repo.readTargets.flatMap((_, index) => (index % 5 === 4 && index < repo.readTargets.length - 1 ? [index] : [])))
  const on: SessionMeasurement[] = []
  const off: SessionMeasurement[] = []
  for (let round = 0; round < rounds; round++) {
    for (const plugin of round % 2 === 0 ? [false, true] : [true, false]) (plugin ? on : off).push(await runSession({ repo, plugin, modelStepMs, shellAfter }))
  }
  const oracle = new InstructionOracle({ root: repo.root, instructionFiles: repo.plan.instructionFiles })
  oracle.baseline()
  const recheck = repo.readTargets.map((target, index) => oracle.touch(target, shellAfter.has(index - 1)).recheckStats ?? 0)
  const counts = on[0]?.stepCounts ?? []
  const exact = counts.length === plain.length && counts.every((step, index) => statLike(step) - statLike(plain[index] ?? step) === recheck[index] && reads(step) === reads(plain[index] ?? step))
  return {
    rounds,
    shells: shellAfter.size,
    recheckOn: median(on.map((run) => median(run.recheckMs))),
    recheckOff: median(off.map((run) => median(run.recheckMs))),
    medianRecheckStats: median(recheck.filter((stats) => stats > 0)),
    exact,
  }
}

/** The report section. */
export function describeShellRecheck(result: ShellRecheckResult): string[] {
  return [
    `shell steps (decision D8; ${result.shells} bash steps, one after every fifth read; ${result.rounds} rounds):`,
    `  re-check of the loaded scopes in the next pre-step: on ${result.recheckOn.toFixed(3)} ms, off ${result.recheckOff.toFixed(3)} ms, difference ${(result.recheckOn - result.recheckOff).toFixed(3)} ms`,
    `  median re-check: ${result.medianRecheckStats} stats (one per loaded directory and per loaded file); steps after a shell step cost exactly that on top, 0 reads: ${result.exact ? 'yes' : 'NO'}`,
  ]
}
