/**
 * `npm run bench:skills`: what the skills catalog costs per step. A project with 200 skills in 30
 * skills directories (the chain from the root to the cwd four levels down with `.dsh`, `.agents`
 * and `.claude` each, `$DSH_HOME/skills`, `~/.agents/skills`, and 13 package directories below
 * the cwd that join when a read touches them) runs the same 45-step scripted session (one `read`
 * per step: a file in each package's `src`, which joins the package's skills; then one in each
 * package's `lib`, a directory without skills; then the first files again) with workspace-context
 * alone and with the skills plugin too, in rotating order every round. Reported: medians over
 * rounds of each round's median step time; the skills plugin's own pre-step time (an
 * `agent/pre-step` listener around it minus one inside it) on quiet steps, after a join that finds
 * skills, after one that finds none, on the first step, and the mean over steps; the step time
 * skills add (on − off) for the same three kinds of step; and one full discovery of all 30
 * directories.
 * Times are report-only.
 *
 * Environment: `DSH_BENCH_ROUNDS` (default 15), `DSH_BENCH_WARMUP` (default 2).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import { createLocalFileSystem } from '@dsh/fs-local'
import { createScriptedProvider } from '@dsh/llm-scripted'
import { createHost } from '@dsh/runtime'
import { createSkillsPlugin, discoverSkills } from '@dsh/skills'
import { tempTree, type TempTree } from '@dsh/testkit'
import { coreTools } from '@dsh/tools'
import { createWorkspaceContextPlugin } from '@dsh/workspace-context'
import { median, range, sum } from './stats.ts'

type Variant = 'off' | 'on'
const VARIANTS: readonly Variant[] = ['off', 'on']
const STEPS = 45
const CHAIN = ['repo', 'repo/a', 'repo/a/b', 'repo/a/b/c', 'repo/a/b/c/work']
const PACKAGES = 13

const positive = (raw: string | undefined, fallback: number): number => (Number.isInteger(Number(raw)) && Number(raw) > 0 ? Number(raw) : fallback)

const skill = (name: string, index: number): string => `---\nname: ${name}\ndescription: Skill number ${index}, which does one careful thing for the project.\n---\nSteps of ${name}.\n`

/** Writes the fixture; returns the 30 skills directories and the files the session reads. */
function fixture(tree: TempTree): { dirs: string[]; targets: string[]; plain: string[] } {
  mkdirSync(tree.path('repo/.git'), { recursive: true })
  writeFileSync(tree.path('repo/AGENTS.md'), 'Root rule.\n')
  const dirs: string[] = []
  for (const dir of CHAIN) for (const family of ['.dsh', '.agents', '.claude']) dirs.push(tree.path(`${dir}/${family}/skills`))
  dirs.push(tree.path('home/skills'), tree.path('os-home/.agents/skills'))
  const targets: string[] = []
  const plain: string[] = []
  for (let pkg = 0; pkg < PACKAGES; pkg++) {
    const base = tree.path(`repo/a/b/c/work/pkg-${pkg}`)
    dirs.push(join(base, '.dsh/skills'))
    mkdirSync(join(base, 'src'), { recursive: true })
    writeFileSync(join(base, 'src/index.ts'), `export const value = ${pkg}\n`)
    targets.push(join(base, 'src/index.ts'))
    // A directory of the package with no skills folder: its first touch is a join that finds nothing.
    mkdirSync(join(base, 'lib'), { recursive: true })
    writeFileSync(join(base, 'lib/util.ts'), `export const util = ${pkg}\n`)
    plain.push(join(base, 'lib/util.ts'))
  }
  for (let index = 0; index < 200; index++) {
    const dir = dirs[index % dirs.length] ?? ''
    const name = `skill-${index}`
    mkdirSync(join(dir, name), { recursive: true })
    writeFileSync(join(dir, name, 'SKILL.md'), skill(name, index))
  }
  return { dirs, targets, plain }
}

function collectGarbage(): void {
  // Present only under `node --expose-gc` (the npm script passes it); without it rounds still run.
  const gc: unknown = Reflect.get(globalThis, 'gc')
  if (typeof gc === 'function') gc()
}

interface RoundResult {
  readonly stepMs: number
  /** Median step time over the steps that follow a package's first touch (a join). */
  readonly joinStepMs: number
  /** Median step time over the steps that follow the first touch of a directory without skills. */
  readonly plainJoinStepMs: number
  /** Median step time over the steps after every package joined. */
  readonly quietStepMs: number
  /** The plugin's own pre-step time after a directory without skills joined. */
  readonly plainJoinMs: number
  /** The plugin's own pre-step time: steps after every package joined (nothing to look at again). */
  readonly quietMs: number
  /** The same on the steps right after a package joined (that package's directories scanned). */
  readonly joinMs: number
  /** The first step (every directory scanned, the whole catalog built). */
  readonly firstMs: number
  readonly ownMeanMs: number
}

function timePreStep(ctx: Context, marks: { outer: number[]; inner: number[] }, where: 'outer' | 'inner'): void {
  ctx.on('agent/pre-step', async (_payload, next) => {
    const start = performance.now()
    const decision = await next()
    marks[where].push(performance.now() - start)
    return decision
  })
}

/** Step n's read: the packages' skill-holding directories first, then their plain directories, then the first again. */
const readOf = (files: { readonly targets: readonly string[]; readonly plain: readonly string[] }, index: number): string =>
  (index < PACKAGES ? files.targets[index] : index < 2 * PACKAGES ? files.plain[index - PACKAGES] : files.targets[index % PACKAGES]) ?? ''

async function session(tree: TempTree, variant: Variant, files: { readonly targets: readonly string[]; readonly plain: readonly string[] }): Promise<RoundResult> {
  const home = tree.path('home')
  const host = await createHost({ dshHome: home, fs: createLocalFileSystem({ writableRoots: [] }), tools: coreTools(), log: () => undefined })
  await host.ctx.plugin(createWorkspaceContextPlugin({ warn: () => undefined }), { maxBytes: 65_536, dshHome: home })
  const marks = { outer: [] as number[], inner: [] as number[] }
  timePreStep(host.ctx, marks, 'outer')
  if (variant === 'on') await host.ctx.plugin(createSkillsPlugin({ warn: () => undefined, home: tree.path('os-home') }), { dshHome: home })
  timePreStep(host.ctx, marks, 'inner')
  const starts: number[] = []
  const responses = [...Array.from({ length: STEPS }, (_, index) => ({ toolCalls: [{ name: 'read', arguments: { file_path: readOf(files, index) } }] })), { text: 'done' }]
  const agent = await host.startAgent({ cwd: tree.path(CHAIN.at(-1) ?? 'repo'), provider: createScriptedProvider({ responses }), onRequest: () => starts.push(performance.now()) })
  await agent.prompt('read through the packages')
  await host.dispose()
  const steps = starts.slice(1).map((at, index) => at - (starts[index] ?? at))
  const own = marks.outer.map((outer, index) => outer - (marks.inner[index] ?? 0))
  // Pre-step n (1-based) follows the read of step n - 1: steps 2..P+1 follow a join that finds
  // skills, steps P+2..2P+1 a join of a directory without skills, the rest nothing new.
  const P = PACKAGES
  return {
    stepMs: median(steps),
    joinStepMs: median(steps.slice(0, P)),
    plainJoinStepMs: median(steps.slice(P, 2 * P)),
    quietStepMs: median(steps.slice(2 * P + 1)),
    firstMs: own[0] ?? Number.NaN,
    joinMs: median(own.slice(1, P + 1)),
    plainJoinMs: median(own.slice(P + 1, 2 * P + 1)),
    quietMs: median(own.slice(2 * P + 1)),
    ownMeanMs: sum(own) / Math.max(1, own.length),
  }
}

async function discoveryMs(tree: TempTree, targets: readonly string[]): Promise<number> {
  const fs = createLocalFileSystem({ writableRoots: [] })
  const nestedDirs = targets.map((target) => join(target, '..', '..'))
  const runs = 20
  const start = performance.now()
  for (let index = 0; index < runs; index++) await discoverSkills({ fs, cwd: tree.path(CHAIN.at(-1) ?? 'repo'), dshHome: tree.path('home'), home: tree.path('os-home'), nestedDirs })
  return (performance.now() - start) / runs
}

async function main(): Promise<void> {
  const rounds = positive(process.env['DSH_BENCH_ROUNDS'], 15)
  const warmups = positive(process.env['DSH_BENCH_WARMUP'], 2)
  const tree = await tempTree({ 'home/': null, 'os-home/': null })
  try {
    const files = fixture(tree)
    const { dirs, targets } = files
    const results = new Map<Variant, RoundResult[]>(VARIANTS.map((variant) => [variant, []]))
    for (let round = 0; round < warmups + rounds; round++) {
      const order = round % 2 === 0 ? VARIANTS : VARIANTS.toReversed()
      for (const variant of order) {
        const result = await session(tree, variant, files)
        if (round >= warmups) results.get(variant)?.push(result)
        collectGarbage()
      }
    }
    const of = (variant: Variant, pick: (result: RoundResult) => number): number[] => (results.get(variant) ?? []).map(pick)
    const off = median(of('off', (result) => result.stepMs))
    const lines = [`skills benchmark: ${rounds} rounds (+${warmups} warm-up), ${STEPS} read steps, 200 skills in ${dirs.length} skills directories (${PACKAGES} join on touch, then ${PACKAGES} directories without skills)`]
    for (const variant of VARIANTS) {
      const steps = of(variant, (result) => result.stepMs)
      const spread = range(steps)
      const own = variant === 'off' ? '' : `\n       skills pre-step: quiet step ${median(of(variant, (result) => result.quietMs)).toFixed(3)} ms, after a package joined ${median(of(variant, (result) => result.joinMs)).toFixed(3)} ms, after a directory without skills joined ${median(of(variant, (result) => result.plainJoinMs)).toFixed(3)} ms, first step ${median(of(variant, (result) => result.firstMs)).toFixed(2)} ms, mean over the ${STEPS} steps ${median(of(variant, (result) => result.ownMeanMs)).toFixed(3)} ms`
      lines.push(`  ${variant.padEnd(4)} step ${median(steps).toFixed(2)} ms [${spread.min.toFixed(2)}-${spread.max.toFixed(2)}]  ratio ${(median(steps) / off).toFixed(2)}${own}`)
    }
    const extra = (pick: (result: RoundResult) => number): string => (median(of('on', pick)) - median(of('off', pick))).toFixed(3)
    lines.push(`  step time added by skills (on − off medians): quiet steps ${extra((result) => result.quietStepMs)} ms, after a package joined ${extra((result) => result.joinStepMs)} ms, after a directory without skills joined ${extra((result) => result.plainJoinStepMs)} ms`)
    lines.push(`  one full discovery of the ${dirs.length} directories: ${(await discoveryMs(tree, targets)).toFixed(2)} ms`)
    process.stdout.write(`${lines.join('\n')}\n`)
  } finally {
    await tree.dispose()
  }
}

await main()
