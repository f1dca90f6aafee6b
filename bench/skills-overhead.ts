/**
 * The skills section of `npm run bench` (issue 24): what the skills catalog adds to the
 * workspace-context overhead per step, measured the way that overhead is measured (the median
 * over rounds of each round's median step time of the same 60-step session). The generated
 * monorepo of the instruction benchmark gets 200 skills in 30 directories: each of its 30 read
 * target directories holds a `.agents/skills` folder of six or seven, so every step of the first
 * pass joins a directory with skills (its SKILL.md files read, a catalog delta delivered) and the
 * second pass revisits them. Variants, alternated every round: workspace-context alone, and
 * workspace-context with the skills plugin. Also reported: the medians of the joining steps and of
 * the revisits, each on − off, and the floor of a joining step (join-floor.ts): the same files
 * read with `node:fs` alone at the same point of the session. Report-only.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { planMonorepo, writeMonorepo } from './generate-monorepo.ts'
import { joinFloorMs } from './join-floor.ts'
import { runSession, type SessionMeasurement } from './session-runner.ts'
import { median, range } from './stats.ts'

const SKILLS = 200
const MODEL_STEP_MS = 1000

const skill = (name: string, index: number): string => `---\nname: ${name}\ndescription: Skill number ${index}, which does one careful thing for this package.\n---\nSteps of ${name}.\n`

function collectGarbage(): void {
  // Present only under `node --expose-gc` (the npm script passes it); without it rounds still run.
  const gc: unknown = Reflect.get(globalThis, 'gc')
  if (typeof gc === 'function') gc()
}

/** The median over rounds of each round's median over the steps `pick` keeps. */
const stepOf = (runs: readonly SessionMeasurement[], pick: (steps: readonly number[]) => readonly number[]): number => median(runs.map((run) => median(pick(run.stepMs))))
const all = (steps: readonly number[]): readonly number[] => steps

/** The median over rounds of each round's mean step time: the session's work spread over its steps, which the median (a joining step here) does not show. */
const meanOf = (runs: readonly SessionMeasurement[]): number => median(runs.map((run) => run.stepMs.reduce((total, ms) => total + ms, 0) / Math.max(1, run.stepMs.length)))

function spread(runs: readonly SessionMeasurement[]): string {
  const r = range(runs.map((run) => median(run.stepMs)))
  return `[${r.min.toFixed(3)}-${r.max.toFixed(3)}]`
}

/** Runs the comparison; returns the report lines. */
export async function skillsOverheadBench(rounds: number, warmups: number): Promise<string[]> {
  const plan = planMonorepo()
  const repo = writeMonorepo(plan)
  const osHome = join(repo.home, '..', 'os-home')
  try {
    mkdirSync(osHome, { recursive: true })
    for (let index = 0; index < SKILLS; index++) {
      const dir = plan.targetDirectories[index % plan.targetDirectories.length] ?? ''
      const name = `skill-${index}`
      mkdirSync(join(repo.root, dir, '.agents', 'skills', name), { recursive: true })
      writeFileSync(join(repo.root, dir, '.agents', 'skills', name, 'SKILL.md'), skill(name, index))
    }
    const off: SessionMeasurement[] = []
    const on: SessionMeasurement[] = []
    for (let round = 0; round < warmups + rounds; round++) {
      for (const withSkills of round % 2 === 0 ? [false, true] : [true, false]) {
        collectGarbage()
        const measurement = await runSession({ repo, plugin: true, modelStepMs: MODEL_STEP_MS, ...(withSkills ? { skills: { home: osHome } } : {}) })
        if (round >= warmups) (withSkills ? on : off).push(measurement)
      }
    }
    const joins = plan.targetDirectories.length
    const floor = await joinFloorMs(repo, joins, Math.max(3, Math.ceil(rounds / 2)))
    const first = (steps: readonly number[]): readonly number[] => steps.slice(0, joins)
    const later = (steps: readonly number[]): readonly number[] => steps.slice(joins)
    const overhead = stepOf(on, all) - stepOf(off, all)
    return [
      `skills on the instruction workload (issue 24): ${rounds} rounds (+${warmups} warm-up), ${plan.reads.length} read steps, ${SKILLS} skills in the ${joins} read target directories (the first ${joins} steps each join one)`,
      `  per step, workspace-context alone      ${stepOf(off, all).toFixed(3)} ms ${spread(off)}`,
      `  per step, with skills                  ${stepOf(on, all).toFixed(3)} ms ${spread(on)}`,
      `  skills overhead per step               ${overhead.toFixed(3)} ms (target: ≤ 0.2 ms): ${overhead <= 0.2 ? 'met' : 'NOT met'}`,
      `  joining steps (first pass)             +${(stepOf(on, first) - stepOf(off, first)).toFixed(3)} ms; revisits +${(stepOf(on, later) - stepOf(off, later)).toFixed(3)} ms`,
      `  mean step time added                   ${(meanOf(on) - meanOf(off)).toFixed(3)} ms`,
      `  floor of a joining step (its system calls alone, join-floor.ts)  ${floor.toFixed(3)} ms`,
    ]
  } finally {
    repo.dispose()
  }
}
