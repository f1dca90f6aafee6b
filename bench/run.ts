/**
 * `npm run bench`: the instruction-file benchmark of issue 4. Generates the monorepo, runs the same
 * 60-step scripted session with the workspace-context plugin mounted and without it, alternating
 * the order every round (warm-up rounds excluded), and prints medians and ratios of wall time,
 * the baseline compose time, and the plugin's port calls per step against the oracle's minimum,
 * followed by the targets and whether they are met. Wall times are report-only; CI gates
 * on the deterministic counts in `fs-counts.test.ts`.
 *
 * Then the end-to-end section of issue 8 item 13 (`end-to-end.ts`): the built `dsh run` spawned
 * on the same repository, CPU time with instructions on − off, and start-up; and the session-log
 * benchmark of issue 7 (`session-bench.ts`): resume and list times with RSS.
 *
 * Environment: `DSH_BENCH_ROUNDS` (default 20), `DSH_BENCH_WARMUP` (default 2),
 * `DSH_BENCH_E2E_ROUNDS` (default 7), `DSH_BENCH_DSH` (another `dsh.mjs` bundle for the end-to-end
 * section), `DSH_BENCH_SESSION_ROUNDS` (default 5), `DSH_BENCH_SANDBOX_ROUNDS` (default 30),
 * `DSH_BENCH_ONLY` (`instructions`, `skills`, `end-to-end`, `sessions`, `sandbox`, `search` or `hooks`).
 *
 * After the instruction benchmark, the skills section of issue 24 (`skills-overhead.ts`): the same
 * session with 200 skills in its 30 target directories, with and without the skills plugin.
 *
 * Then the sandbox start cost per shell call of issue 19 (`sandbox-start.ts`), the search
 * benchmark, the cost of an empty PreToolUse hook per tool call of issue 26 (`hook-overhead.ts`;
 * `DSH_BENCH_ONLY=hooks`), and last the MCP section of issue 23 (`mcp-bench.ts`: start-up with
 * three stdio servers against none, and the request bytes of their tools with and without
 * deferral; `DSH_BENCH_MCP_ROUNDS`, default 7; `DSH_BENCH_ONLY=mcp`).
 */
import { cpus } from 'node:os'
import { compareSteps, meetsTarget, summarize } from './count-comparison.ts'
import { statLike, reads, type CallCounts } from './counting-fs.ts'
import { planMonorepo, writeMonorepo, type GeneratedMonorepo } from './generate-monorepo.ts'
import { describeEndToEnd, measureEndToEnd } from './end-to-end.ts'
import { describeHostile, measureHostileFixtures } from './hostile-fixtures.ts'
import { InstructionOracle, type PassExpectation } from './instruction-oracle.ts'
import { describeCounts, describeTargets, describeTiming, describeWorkload, type CountResult, type TimingResult } from './report.ts'
import { runSearchBench } from './search-bench.ts'
import { runSessionBench } from './session-bench.ts'
import { sandboxStartBench } from './sandbox-start.ts'
import { mcpBench } from './mcp-bench.ts'
import { runSession, type SessionMeasurement } from './session-runner.ts'
import { describeShellRecheck, measureShellRecheck } from './shell-recheck.ts'
import { median, range, sum } from './stats.ts'
import { describeRenderCost, measureRenderCost } from './render-cost.ts'
import { hookOverheadBench } from './hook-overhead.ts'
import { skillsOverheadBench } from './skills-overhead.ts'

/** Simulated model time per step on the plugin's clock (a real model takes seconds per step). */
const MODEL_STEP_MS = 1000

const positive = (raw: string | undefined, fallback: number): number => {
  const value = Number(raw)
  return Number.isInteger(value) && value > 0 ? value : fallback
}

function collectGarbage(): void {
  // Present only under `node --expose-gc` (the npm script passes it); without it rounds still run.
  const gc: unknown = Reflect.get(globalThis, 'gc')
  if (typeof gc === 'function') gc()
}

function expectations(repo: GeneratedMonorepo, targets: readonly string[]): { baseline: PassExpectation; steps: PassExpectation[]; loaded: string[] } {
  const oracle = new InstructionOracle({ root: repo.root, instructionFiles: repo.plan.instructionFiles })
  const baseline = oracle.baseline()
  const steps = targets.map((target) => oracle.touch(target))
  return { baseline, steps, loaded: oracle.loadedPaths().toSorted() }
}

const sameCounts = (a: readonly CallCounts[], b: readonly CallCounts[]): boolean => JSON.stringify(a) === JSON.stringify(b)

/** Each round's median step time. */
const roundMedians = (runs: readonly SessionMeasurement[]): number[] => runs.map((run) => median(run.stepMs))

function timing(on: readonly SessionMeasurement[], off: readonly SessionMeasurement[], kinds: readonly PassExpectation['kind'][], warmups: number): TimingResult {
  const onMedians = roundMedians(on)
  const offMedians = roundMedians(off)
  const kindMedian = (runs: readonly SessionMeasurement[], kind: string): number => median(runs.map((run) => median(run.stepMs.filter((_, i) => kinds[i] === kind))))
  const present = [...new Set(kinds)]
  return {
    rounds: on.length,
    warmups,
    stepOn: median(onMedians),
    stepOff: median(offMedians),
    stepOnRange: range(onMedians),
    stepOffRange: range(offMedians),
    pairedOverhead: median(onMedians.map((value, i) => value - (offMedians[i] ?? Number.NaN))),
    byKind: present.map((kind) => ({ kind, steps: kinds.filter((k) => k === kind).length, on: kindMedian(on, kind), off: kindMedian(off, kind) })),
    touchOn: median(on.map((run) => median(run.touchMs))),
    touchOff: median(off.map((run) => median(run.touchMs))),
    baselineOn: median(on.map((run) => run.baselineMs)),
    baselineOff: median(off.map((run) => run.baselineMs)),
  }
}

async function instructionBench(): Promise<void> {
  const rounds = positive(process.env['DSH_BENCH_ROUNDS'], 20)
  const warmups = positive(process.env['DSH_BENCH_WARMUP'], 2)
  const started = performance.now()
  const cpu = cpus()
  process.stdout.write(`dsh instruction-file benchmark (issue 4)\nmachine: node ${process.version}, ${process.platform}/${process.arch}, ${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'}\n`)

  const plan = planMonorepo()
  const generateStart = performance.now()
  const repo = writeMonorepo(plan)
  process.stdout.write(`${describeWorkload(plan, performance.now() - generateStart).join('\n')}\n`)
  try {
    const expected = expectations(repo, repo.readTargets)
    // Counts only: a third pass over the target directories, so that settled steps exist.
    const extended = [...repo.readTargets, ...repo.readTargets.slice(0, plan.targetDirectories.length)]
    const extendedExpected = expectations(repo, extended)
    const on: SessionMeasurement[] = []
    const off: SessionMeasurement[] = []
    for (let round = 0; round < warmups + rounds; round++) {
      const order = round % 2 === 0 ? [false, true] : [true, false]
      for (const plugin of order) {
        collectGarbage()
        const measurement = await runSession({ repo, plugin, modelStepMs: MODEL_STEP_MS })
        if (round >= warmups) (plugin ? on : off).push(measurement)
      }
    }
    collectGarbage()
    const wallClock = await runSession({ repo, plugin: true, modelStepMs: 0 })
    const third = compareSteps(extendedExpected.steps, (await runSession({ repo, plugin: true, modelStepMs: MODEL_STEP_MS, targets: extended })).stepCounts, 1).slice(repo.readTargets.length)

    const first = on[0]
    if (first === undefined) throw new Error('no measured round')
    const steps = compareSteps(expected.steps, first.stepCounts, 1)
    const revisits = steps.filter((step) => step.expected.kind !== 'discovery')
    const [baseline] = compareSteps([expected.baseline], [first.baselineCounts], 0)
    if (baseline === undefined) throw new Error('no baseline comparison')
    const counts: CountResult = {
      baseline,
      summaries: summarize(steps),
      revisitSteps: revisits.length,
      revisitStepsMeeting: revisits.filter(meetsTarget).length,
      deterministic: on.every((run) => sameCounts(run.stepCounts, first.stepCounts) && sameCounts([run.baselineCounts], [first.baselineCounts])),
      wallClock: { medianStatLike: median(wallClock.stepCounts.map(statLike)), reads: sum(wallClock.stepCounts.map(reads)) },
      loadedMatches: JSON.stringify(first.loadedPaths.toSorted()) === JSON.stringify(expected.loaded),
      loadedFiles: expected.loaded.length,
      thirdPass: {
        steps: third.length,
        settled: third.filter((step) => step.expected.kind === 'settled').length,
        meeting: third.filter(meetsTarget).length,
        medianStatLike: median(third.map((step) => step.statLike)),
        medianBound: median(third.map((step) => step.expected.targetBound)),
        reads: sum(third.map((step) => step.reads)),
      },
    }
    const times = timing(on, off, expected.steps.map((step) => step.kind), warmups)
    const hostileRounds = Math.max(5, Math.min(rounds, 20))
    const hostile = await measureHostileFixtures(hostileRounds)
    const shell = await measureShellRecheck(repo, first.stepCounts, Math.max(3, Math.min(rounds, 10)), MODEL_STEP_MS)
    const lines = [...describeTiming(times), ...describeCounts(counts), ...describeTargets(times, counts), ...describeShellRecheck(shell), ...describeHostile(hostile, hostileRounds), ...describeRenderCost(measureRenderCost())]
    process.stdout.write(`${lines.join('\n')}\ntotal run time ${((performance.now() - started) / 1000).toFixed(1)} s\n`)
  } finally {
    repo.dispose()
  }
}

/** The end-to-end section on a freshly generated repository. */
function endToEndBench(): void {
  const repo = writeMonorepo(planMonorepo())
  try {
    process.stdout.write(`${describeEndToEnd(measureEndToEnd(repo, positive(process.env['DSH_BENCH_E2E_ROUNDS'], 7))).join('\n')}\n`)
  } finally {
    repo.dispose()
  }
}

async function main(): Promise<void> {
  const only = process.env['DSH_BENCH_ONLY']
  if (only === undefined || only === 'instructions') await instructionBench()
  if (only === undefined || only === 'skills') process.stdout.write(`${(await skillsOverheadBench(positive(process.env['DSH_BENCH_ROUNDS'], 20), positive(process.env['DSH_BENCH_WARMUP'], 2))).join('\n')}\n`)
  if (only === undefined || only === 'end-to-end') endToEndBench()
  if (only === undefined || only === 'sessions') process.stdout.write(`${runSessionBench(positive(process.env['DSH_BENCH_SESSION_ROUNDS'], 5)).join('\n')}\n`)
  if (only === undefined || only === 'sandbox') process.stdout.write(`${(await sandboxStartBench(positive(process.env['DSH_BENCH_SANDBOX_ROUNDS'], 30))).join('\n')}\n`)
  if (only === undefined || only === 'search') process.stdout.write(`${(await runSearchBench(positive(process.env['DSH_BENCH_SEARCH_ROUNDS'], 7))).join('\n')}\n`)
  if (only === undefined || only === 'hooks') {
    const hookOptions = { rounds: positive(process.env['DSH_BENCH_HOOK_ROUNDS'], 15), warmups: positive(process.env['DSH_BENCH_WARMUP'], 2), calls: positive(process.env['DSH_BENCH_HOOK_CALLS'], 20) }
    process.stdout.write(`${(await hookOverheadBench(hookOptions)).join('\n')}\n`)
  }
  if (only === undefined || only === 'mcp') process.stdout.write(`${(await mcpBench(positive(process.env['DSH_BENCH_MCP_ROUNDS'], 7))).join('\n')}\n`)
}

await main()
