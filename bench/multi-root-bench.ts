/**
 * `npm run bench:roots`: what additional roots cost per step. The same 30-step scripted session
 * (one `read` per step, cycling over nested files of three additional roots, each root with a
 * top-level and nested instruction files) runs on a real host in three compositions, in rotating
 * order every round: plugin off, plugin on without roots, plugin on with the three roots.
 * Reported: medians over rounds of each round's median step time, and of the plugin's own
 * pre-step time (an `agent/pre-step` listener around it minus one inside it), with ratios to the
 * composition without the plugin; and the median cost of one roots listing (registry read plus a
 * stat and realpath per root), which every pre-step and every write makes. Times are report-only.
 *
 * Environment: `DSH_BENCH_ROUNDS` (default 15), `DSH_BENCH_WARMUP` (default 2).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Context } from '@deepseek-ai/cordis'
import { createLocalFileSystem } from '@dsh/fs-local'
import { createScriptedProvider } from '@dsh/llm-scripted'
import { createMultiRootWorkspacePlugin, RootRegistry } from '@dsh/multi-root-workspace'
import { createHost } from '@dsh/runtime'
import { tempTree, type TempTree } from '@dsh/testkit'
import { coreTools } from '@dsh/tools'
import { median, range } from './stats.ts'

type Variant = 'off' | 'no-roots' | 'three-roots'
const VARIANTS: readonly Variant[] = ['off', 'no-roots', 'three-roots']
const ROOTS = ['lib-a', 'lib-b', 'lib-c'] as const
const STEPS = 30

const positive = (raw: string | undefined, fallback: number): number => (Number.isInteger(Number(raw)) && Number(raw) > 0 ? Number(raw) : fallback)

function fixture(tree: TempTree): string[] {
  const targets: string[] = []
  mkdirSync(tree.path('app/.git'), { recursive: true })
  writeFileSync(tree.path('app/AGENTS.md'), 'App rule.\n')
  for (const root of ROOTS) {
    mkdirSync(tree.path(root))
    writeFileSync(tree.path(`${root}/AGENTS.md`), `${root} top-level rule.\n`.repeat(40))
    for (let dir = 0; dir < 5; dir++) {
      const nested = tree.path(`${root}/pkg-${dir}/src`)
      mkdirSync(nested, { recursive: true })
      writeFileSync(join(tree.path(`${root}/pkg-${dir}`), 'AGENTS.md'), `${root} pkg-${dir} rule.\n`.repeat(20))
      writeFileSync(join(nested, 'index.ts'), `export const value = ${dir}\n`)
      targets.push(join(nested, 'index.ts'))
    }
  }
  return targets
}

function collectGarbage(): void {
  // Present only under `node --expose-gc` (the npm script passes it); without it rounds still run.
  const gc: unknown = Reflect.get(globalThis, 'gc')
  if (typeof gc === 'function') gc()
}

interface RoundResult {
  readonly stepMs: number
  readonly preStepMs: number
}

function timePreStep(ctx: Context, marks: { outer: number[]; inner: number[] }, where: 'outer' | 'inner'): void {
  ctx.on('agent/pre-step', async (_payload, next) => {
    const start = performance.now()
    const decision = await next()
    marks[where].push(performance.now() - start)
    return decision
  })
}

async function session(tree: TempTree, variant: Variant, targets: readonly string[], home: string): Promise<RoundResult> {
  const host = await createHost({ dshHome: home, fs: createLocalFileSystem({ writableRoots: [] }), tools: coreTools(), log: () => undefined })
  const marks = { outer: [] as number[], inner: [] as number[] }
  timePreStep(host.ctx, marks, 'outer')
  if (variant !== 'off') await host.ctx.plugin(createMultiRootWorkspacePlugin({ warn: () => undefined }), { dshHome: home })
  timePreStep(host.ctx, marks, 'inner')
  const starts: number[] = []
  const responses = [...Array.from({ length: STEPS }, (_, index) => ({ toolCalls: [{ name: 'read', arguments: { file_path: targets[index % targets.length] ?? '' } }] })), { text: 'done' }]
  const agent = await host.startAgent({ cwd: tree.path('app'), provider: createScriptedProvider({ responses }), onRequest: () => starts.push(performance.now()) })
  await agent.prompt('read through the libraries')
  await host.dispose()
  const steps = starts.slice(1).map((at, index) => at - (starts[index] ?? at))
  const own = marks.outer.map((outer, index) => outer - (marks.inner[index] ?? 0))
  return { stepMs: median(steps), preStepMs: median(own) }
}

function listingMicros(home: string, primary: string): number {
  const registry = new RootRegistry({ dshHome: home })
  const runs = 500
  const start = performance.now()
  for (let index = 0; index < runs; index++) registry.list(primary)
  return ((performance.now() - start) / runs) * 1000
}

async function main(): Promise<void> {
  const rounds = positive(process.env['DSH_BENCH_ROUNDS'], 15)
  const warmups = positive(process.env['DSH_BENCH_WARMUP'], 2)
  const tree = await tempTree({ 'home-roots/': null, 'home-empty/': null })
  try {
    const targets = fixture(tree)
    const registry = new RootRegistry({ dshHome: tree.path('home-roots') })
    for (const root of ROOTS) await registry.add(tree.path('app'), tree.path(root))
    const results = new Map<Variant, RoundResult[]>(VARIANTS.map((variant) => [variant, []]))
    const listings: number[] = []
    for (let round = 0; round < warmups + rounds; round++) {
      const order = VARIANTS.map((_, index) => VARIANTS[(index + round) % VARIANTS.length] ?? 'off')
      for (const variant of order) {
        const home = variant === 'three-roots' ? tree.path('home-roots') : tree.path('home-empty')
        const result = await session(tree, variant, targets, home)
        if (round >= warmups) results.get(variant)?.push(result)
        collectGarbage()
      }
      if (round >= warmups) listings.push(listingMicros(tree.path('home-roots'), tree.path('app')))
    }
    const stepOf = (variant: Variant): number[] => (results.get(variant) ?? []).map((result) => result.stepMs)
    const preOf = (variant: Variant): number[] => (results.get(variant) ?? []).map((result) => result.preStepMs)
    const off = median(stepOf('off'))
    const lines = [`multi-root-workspace benchmark: ${rounds} rounds (+${warmups} warm-up), ${STEPS} read steps, 3 roots x (1 top-level + 5 nested instruction files)`]
    for (const variant of VARIANTS) {
      const steps = stepOf(variant)
      const spread = range(steps)
      lines.push(`  ${variant.padEnd(12)} step ${median(steps).toFixed(2)} ms [${spread.min.toFixed(2)}-${spread.max.toFixed(2)}]  ratio ${(median(steps) / off).toFixed(2)}  plugin pre-step ${variant === 'off' ? '-' : `${median(preOf(variant)).toFixed(3)} ms`}`)
    }
    lines.push(`  roots listing (registry read + 3 roots re-checked): ${median(listings).toFixed(1)} µs`)
    process.stdout.write(`${lines.join('\n')}\n`)
  } finally {
    await tree.dispose()
  }
}

await main()
