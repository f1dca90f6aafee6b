/**
 * Runs one benchmark session: a fresh `composeTestHost` over the generated repository (real local
 * filesystem, core tools, scripted model), optionally with the workspace-context plugin mounted,
 * and a script of one `read` per model step (optionally a `bash` step after some of them)
 * followed by a final text. It records, per read step, the wall time and the port calls the
 * plugin made (a read step after a shell step includes the plugin's re-check in its pre-step).
 *
 * Step boundaries come from an outermost `agent/pre-step` listener. Step k lasts from the start of
 * its pre-step to the start of the next one (model call, tool, `tools/post-execute` with the
 * plugin's touch pass, session appends); for step 1 the pre-step itself, which holds the baseline
 * pass, is excluded and reported as the baseline compose time instead. The `tools/post-execute`
 * chain is timed on its own as well: that is the plugin's touch pass, without the downstream cost
 * of the larger context (request building over more history).
 *
 * The plugin sees its own counting `fs` service (an isolated `fs` scope), so the tools' reads are
 * never counted. Its version memo runs on a clock that advances `modelStepMs` per model call on
 * top of the wall clock: a scripted model answers in microseconds, a real one in seconds, and the
 * memo's settle rule depends on the time between passes. With `modelStepMs` well above the settle
 * window the counts are deterministic; with 0 they depend on machine speed.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { FileSystemPort } from '@dsh/contracts'
import { createLocalFileSystem } from '@dsh/fs-local'
import { composeTestHost } from '@dsh/testkit'
import { createSkillsPlugin } from '@dsh/skills'
import { createWorkspaceContextPlugin, type ConfigInput } from '@dsh/workspace-context'
import { countingFileSystem, countsBetween, zeroCounts, type CallCounts } from './counting-fs.ts'
import type { GeneratedMonorepo } from './generate-monorepo.ts'

/** What to run. */
export interface SessionOptions {
  readonly repo: GeneratedMonorepo
  /** Mount the plugin. */
  readonly plugin: boolean
  /** Simulated model time added to the plugin's clock per step (0: wall clock only). */
  readonly modelStepMs: number
  /** Extra plugin options (the bench uses the CLI's `maxBytes: 65536`). */
  readonly config?: Partial<ConfigInput>
  /** Read targets; defaults to the plan's reads. */
  readonly targets?: readonly string[]
  /**
   * Indexes of reads (0-based) after which the model runs `bash` with a command that changes
   * nothing (`true`): the plugin re-checks its loaded scopes at the next pre-step (decision D8).
   */
  readonly shellAfter?: ReadonlySet<number>
  /** Mount the skills plugin too (after workspace-context), with this OS home for `~/.agents/skills`. */
  readonly skills?: { readonly home: string }
}

/** What one session measured. */
export interface SessionMeasurement {
  /** Duration of the first pre-step (the baseline pass when the plugin is on). */
  readonly baselineMs: number
  /** Duration of each read step (see the module comment; shell steps are left out). */
  readonly stepMs: readonly number[]
  /** Duration of the pre-step of each read step that follows a shell step (the D8 re-check when the plugin is on). */
  readonly recheckMs: readonly number[]
  /** Plugin port calls during each shell step itself (expected: none). */
  readonly shellCounts: readonly CallCounts[]
  /** Duration of each step's `tools/post-execute` chain (the plugin's touch pass when it is on). */
  readonly touchMs: readonly number[]
  /** Plugin port calls during the baseline. */
  readonly baselineCounts: CallCounts
  /** Plugin port calls per read step. */
  readonly stepCounts: readonly CallCounts[]
  /** Instruction files named as loaded in the last request ("Instructions from" / "Additional instructions from"). */
  readonly loadedPaths: readonly string[]
}

interface Mark {
  readonly start: number
  readonly end: number
  readonly countsAtStart: CallCounts
  readonly countsAtEnd: CallCounts
}

const LOADED_HEADING = /^(?:Instructions from|Additional instructions from): (.+)$/gmu

function loadedPathsOf(text: string): string[] {
  return [...text.matchAll(LOADED_HEADING)].map((match) => match[1] ?? '')
}

/** Runs one session and returns its measurement. */
export async function runSession(options: SessionOptions): Promise<SessionMeasurement> {
  const { repo } = options
  const targets = options.targets ?? repo.readTargets
  const steps = targets.flatMap((target, index) => [{ shell: false, target }, ...(options.shellAfter?.has(index) === true ? [{ shell: true, target: '' }] : [])])
  // A home that has held sessions before: the first session must not change the user-global directory mid-measurement.
  mkdirSync(join(repo.home, 'sessions'), { recursive: true })
  const test = await composeTestHost({ dshHome: repo.home, writableRoots: [repo.root] })
  const counter = countingFileSystem(createLocalFileSystem({ writableRoots: [repo.root] }))
  // Start one model step ahead: the repository existed before the session (a freshly generated tree
  // would otherwise still be inside the racy-timestamp window at the first step).
  let simulatedMs = options.modelStepMs
  const marks: Mark[] = []
  test.host.ctx.on(
    'agent/pre-step',
    async (_payload, next) => {
      const start = performance.now()
      const countsAtStart = counter.snapshot()
      const decision = await next()
      marks.push({ start, end: performance.now(), countsAtStart, countsAtEnd: counter.snapshot() })
      // The model call follows the pre-step: the step's touch pass happens one model call later.
      simulatedMs += options.modelStepMs
      return decision
    },
    { prepend: true },
  )
  const touchMs: number[] = []
  test.host.ctx.on(
    'tools/post-execute',
    async (execution, _output, next) => {
      const start = performance.now()
      const decision = await next()
      if (execution.name === 'read') touchMs.push(performance.now() - start)
      return decision
    },
    { prepend: true },
  )
  try {
    if (options.plugin) {
      const scoped = test.host.ctx.isolate('fs')
      scoped.provide('fs', counter.port satisfies FileSystemPort)
      const now = (): number => Date.now() + simulatedMs
      await scoped.plugin(createWorkspaceContextPlugin({ now }), { maxBytes: 65536, dshHome: repo.home, ...options.config })
    }
    if (options.skills !== undefined) await test.host.ctx.plugin(createSkillsPlugin({ warn: () => undefined, home: options.skills.home }), { dshHome: repo.home })
    const responses = [...steps.map((step) => ({ toolCalls: [step.shell ? { name: 'bash', arguments: { command: 'true' } } : { name: 'read', arguments: { file_path: step.target } }] })), { text: 'done' }]
    const agent = await test.start({ cwd: repo.root, script: { responses } })
    const result = await agent.prompt('Read the files one at a time.')
    if (result.reason !== 'completed') throw new Error(`benchmark session ended with ${result.reason}${result.error === undefined ? '' : `: ${result.error}`}`)
  } finally {
    await test.host.dispose()
  }
  if (marks.length !== steps.length + 1) throw new Error(`expected ${steps.length + 1} steps, saw ${marks.length}`)
  const stepMs: number[] = []
  const recheckMs: number[] = []
  const stepCounts: CallCounts[] = []
  const shellCounts: CallCounts[] = []
  for (const [i, mark] of marks.entries()) {
    const following = marks[i + 1]
    const step = steps[i]
    if (following === undefined || step === undefined) break
    const counts = countsBetween(i === 0 ? mark.countsAtEnd : mark.countsAtStart, following.countsAtStart)
    if (step.shell) {
      shellCounts.push(counts)
      continue
    }
    if (steps[i - 1]?.shell === true) recheckMs.push(mark.end - mark.start)
    stepMs.push(following.start - (i === 0 ? mark.end : mark.start))
    stepCounts.push(counts)
  }
  const [first] = marks
  if (first === undefined) throw new Error('the session made no step')
  const last = test.requests.at(-1)
  const lastText = (last?.messages ?? []).flatMap((message) => (message.role === 'user' ? [message.content] : [])).join('\n')
  return {
    baselineMs: first.end - first.start,
    stepMs,
    recheckMs,
    shellCounts,
    touchMs,
    baselineCounts: options.plugin ? countsBetween(first.countsAtStart, first.countsAtEnd) : zeroCounts(),
    stepCounts,
    loadedPaths: loadedPathsOf(lastText),
  }
}
