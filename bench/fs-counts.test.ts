// CI gate on the workspace-context plugin's filesystem COUNTS (deterministic; wall time is never
// gated): a small generated monorepo, one scripted session of three passes over the same read
// targets (discovery, first revisit, settled), the plugin's port calls counted per step and
// compared with the oracle. The issue-4 bound (stat-like calls <= examined directories + loaded
// files, no reads) is enforced on every step that examines no new directory, first revisits
// included. Failures list every offending step's counts. With a shell step after some reads, the
// read that follows costs exactly the D8 re-check on top (one stat per loaded directory and per
// loaded file), which the bound of those steps includes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compareSteps, type StepComparison } from './count-comparison.ts'
import { planMonorepo, writeMonorepo, type GeneratedMonorepo, type MonorepoOptions } from './generate-monorepo.ts'
import { InstructionOracle } from './instruction-oracle.ts'
import { runSession, type SessionMeasurement } from './session-runner.ts'

const SMALL: MonorepoOptions = { seed: 11, directories: 160, minLeafDepth: 4, maxDepth: 6, instructionFiles: 12, offPathInstructionFiles: 2, targetDirectories: 6, reads: 18 }
/** Far above the plugin's settle window, so the counts do not depend on machine speed. */
const MODEL_STEP_MS = 1000

let repo: GeneratedMonorepo
let session: SessionMeasurement
let steps: StepComparison[]
let expectedLoaded: string[]

function describeStep(step: StepComparison): string {
  const { measured, expected } = step
  return (
    `step ${step.step} (${expected.kind}): stat-like ${step.statLike} (stat ${measured.stat}, lstat ${measured.lstat}, resolve ${measured.resolve}) ` +
    `vs bound ${expected.targetBound} (${expected.examinedDirectories} examined directories + ${expected.loadedFiles} loaded files); reads ${step.reads}`
  )
}

beforeAll(async () => {
  repo = writeMonorepo(planMonorepo(SMALL))
  session = await runSession({ repo, plugin: true, modelStepMs: MODEL_STEP_MS })
  const oracle = new InstructionOracle({ root: repo.root, instructionFiles: repo.plan.instructionFiles })
  oracle.baseline()
  steps = compareSteps(
    repo.readTargets.map((target) => oracle.touch(target)),
    session.stepCounts,
    1,
  )
  expectedLoaded = oracle.loadedPaths().toSorted()
})

afterAll(() => repo?.dispose())

describe('workspace-context fs-call counts on a generated monorepo', () => {
  it('loads exactly the instruction files the oracle expects (the counts below are not vacuous)', () => {
    expect(session.loadedPaths.toSorted()).toEqual(expectedLoaded)
    expect(expectedLoaded.length).toBeGreaterThanOrEqual(6)
  })

  it('settled reads in unchanged directories: stat-like calls <= examined directories + loaded files, and no reads', () => {
    const settled = steps.filter((step) => step.expected.kind === 'settled')
    expect(settled.length, 'the workload must contain settled steps').toBeGreaterThanOrEqual(6)
    const offending = settled.filter((step) => step.statLike > step.expected.targetBound || step.reads > 0).map(describeStep)
    expect(offending, `settled steps over the issue-4 bound:\n${offending.join('\n')}`).toEqual([])
  })

  it('first revisit of a directory already meets the bound: stat-like calls <= examined directories + loaded files, and no reads', () => {
    const revisits = steps.filter((step) => step.expected.kind === 'first-revisit')
    expect(revisits.length).toBeGreaterThan(0)
    const offending = revisits.filter((step) => step.statLike > step.expected.targetBound || step.reads > 0).map(describeStep)
    expect(offending, `first-revisit steps over the issue-4 bound:\n${offending.join('\n')}`).toEqual([])
  })

  it('reads every instruction file exactly once over the whole session', () => {
    const total = steps.reduce((sum, step) => sum + step.reads, 0) + session.baselineCounts.streamText + session.baselineCounts.readText
    expect(total, `${total} reads for ${expectedLoaded.length} loaded files`).toBe(expectedLoaded.length)
  })

  it('counts are identical when the same session runs again', async () => {
    const again = await runSession({ repo, plugin: true, modelStepMs: MODEL_STEP_MS })
    expect(again.baselineCounts).toEqual(session.baselineCounts)
    expect(again.stepCounts).toEqual(session.stepCounts)
  })

  it('a shell step adds exactly the re-check of the loaded scopes to the next step, and nothing else', async () => {
    const shellAfter = new Set([2, 7, 12, 16])
    const withShell = await runSession({ repo, plugin: true, modelStepMs: MODEL_STEP_MS, shellAfter })
    const oracle = new InstructionOracle({ root: repo.root, instructionFiles: repo.plan.instructionFiles })
    oracle.baseline()
    const expected = repo.readTargets.map((target, index) => oracle.touch(target, shellAfter.has(index - 1)))
    const compared = compareSteps(expected, withShell.stepCounts, 1)
    expect(withShell.shellCounts.map((counts) => counts.stat + counts.lstat + counts.resolve + counts.streamText + counts.readText)).toEqual([0, 0, 0, 0])
    const differences = compared.map((step, index) => ({ step: step.step, extra: step.statLike - (steps[index]?.statLike ?? Number.NaN), reads: step.reads - (steps[index]?.reads ?? Number.NaN), recheck: step.expected.recheckStats ?? 0 }))
    const after = differences.filter((d) => d.recheck > 0)
    expect(after).toHaveLength(4)
    expect(differences.map((d) => d.extra)).toEqual(differences.map((d) => d.recheck))
    expect(differences.every((d) => d.reads === 0)).toBe(true)
    const offending = compared.filter((step) => step.expected.kind !== 'discovery' && (step.statLike > step.expected.targetBound || step.reads > 0)).map(describeStep)
    expect(offending, `revisit steps over the bound (re-check included):\n${offending.join('\n')}`).toEqual([])
  })
})
