/**
 * End-to-end cost of instructions (issue 8 item 13): the built `dsh` spawned as a user runs it,
 * `dsh run` over the generated monorepo with the 61-step script (60 reads, then a final text),
 * instructions on (the product default) and off (`workspaceContext.maxBytes: 0`), alternating the
 * order every round after one warm-up pair. Each child reports its own CPU time (user + system,
 * every thread: V8's background compilers and the thread pool included) through a preload
 * (`cpu-usage-preload.mjs`). The figure is the median over rounds of on − off, and its ratio to the
 * reference harness's overhead on the same workload (a constant from the issue: it cannot run
 * here). Start-up is reported as well: `dsh --version` and a 1-step run, medians.
 *
 * `DSH_BENCH_DSH` points at another bundle (a `dsh.mjs` built from another commit) to measure it
 * on the same workload; the default is this tree's build (`npm run build` first).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import type { GeneratedMonorepo } from './generate-monorepo.ts'
import { median, range } from './stats.ts'

/** CPU overhead of instructions of the reference harness on this workload (issue 8 item 13), ms. */
export const REFERENCE_OVERHEAD_MS = 1300

const usageSchema = z.object({ userMs: z.number(), systemMs: z.number(), maxRssKiB: z.number() })

/** One spawned process. */
interface ChildUsage {
  readonly cpuMs: number
  readonly maxRssKiB: number
}

/** What the end-to-end section measured (CPU times in ms). */
export interface EndToEndResult {
  readonly bundle: string
  readonly rounds: number
  readonly on: readonly number[]
  readonly off: readonly number[]
  /** Per-round on − off. */
  readonly overhead: readonly number[]
  readonly version: readonly number[]
  readonly oneStep: readonly number[]
  readonly maxRssOnKiB: number
  readonly load: { readonly start: readonly number[]; readonly end: readonly number[] }
}

/** The bundle to spawn: `DSH_BENCH_DSH`, else this tree's build. */
export function bundlePath(): string {
  const chosen = process.env['DSH_BENCH_DSH']
  return chosen !== undefined && chosen !== '' ? chosen : fileURLToPath(new URL('../apps/cli/dist/dsh.mjs', import.meta.url))
}

/** Spawns the bundle with `args` and returns the child's own CPU time and peak RSS (`cpu-usage-preload.mjs`). */
export function spawnMeasured(bundle: string, args: readonly string[], usageFile: string): ChildUsage {
  rmSync(usageFile, { force: true })
  const preload = new URL('./cpu-usage-preload.mjs', import.meta.url).href
  const child = spawnSync(process.execPath, ['--import', preload, bundle, ...args], { encoding: 'utf8', env: { ...process.env, DSH_BENCH_USAGE_FILE: usageFile }, maxBuffer: 1 << 24 })
  if (child.status !== 0) throw new Error(`dsh ${args[0] ?? ''} exited with ${child.status ?? child.signal ?? 'nothing'}: ${child.stderr.trim().split('\n').at(-1) ?? ''}`)
  const usage = usageSchema.parse(JSON.parse(readFileSync(usageFile, 'utf8')))
  return { cpuMs: usage.userMs + usage.systemMs, maxRssKiB: usage.maxRssKiB }
}

/** Writes the script of one `read` per target then a final text; returns its path. */
function writeScript(directory: string, name: string, targets: readonly string[]): string {
  const file = join(directory, name)
  const responses = [...targets.map((target) => ({ toolCalls: [{ name: 'read', arguments: { file_path: target } }] })), { text: 'done' }]
  writeFileSync(file, JSON.stringify({ responses }))
  return file
}

/** Runs the section: `rounds` measured pairs after one warm-up pair, then the start-up figures. */
export function measureEndToEnd(repo: GeneratedMonorepo, rounds: number): EndToEndResult {
  const bundle = bundlePath()
  if (!existsSync(bundle)) throw new Error(`${bundle} does not exist: run \`npm run build\` first`)
  const work = mkdtempSync(join(tmpdir(), 'dsh-e2e-bench-'))
  const start = loadavg()
  try {
    const script = writeScript(work, 'session.json', repo.readTargets)
    const oneStep = writeScript(work, 'one-step.json', [])
    const offConfig = join(work, 'off.yaml')
    writeFileSync(offConfig, 'workspaceContext:\n  maxBytes: 0\n')
    const usageFile = join(work, 'usage.json')
    const run = (model: string, config: string | undefined): ChildUsage =>
      spawnMeasured(bundle, ['run', '--cwd', repo.root, '--dsh-home', repo.home, '--model', `scripted:${model}`, ...(config === undefined ? [] : ['--config', config]), 'Read the files one at a time.'], usageFile)
    const on: ChildUsage[] = []
    const off: ChildUsage[] = []
    for (let round = 0; round <= rounds; round++) {
      for (const instructions of round % 2 === 0 ? [false, true] : [true, false]) {
        const usage = run(script, instructions ? undefined : offConfig)
        if (round > 0) (instructions ? on : off).push(usage)
      }
    }
    const version: number[] = []
    const single: number[] = []
    for (let round = 0; round <= rounds; round++) {
      const versionUsage = spawnMeasured(bundle, ['--version'], usageFile)
      const singleUsage = run(oneStep, undefined)
      if (round > 0) {
        version.push(versionUsage.cpuMs)
        single.push(singleUsage.cpuMs)
      }
    }
    const onCpu = on.map((usage) => usage.cpuMs)
    const offCpu = off.map((usage) => usage.cpuMs)
    return {
      bundle,
      rounds,
      on: onCpu,
      off: offCpu,
      overhead: onCpu.map((value, index) => value - (offCpu[index] ?? Number.NaN)),
      version,
      oneStep: single,
      maxRssOnKiB: median(on.map((usage) => usage.maxRssKiB)),
      load: { start, end: loadavg() },
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

const ms = (value: number): string => `${value.toFixed(0)} ms`
const loadText = (values: readonly number[]): string => values.map((value) => value.toFixed(1)).join(' ')
const spread = (values: readonly number[]): string => {
  const { min, max } = range(values)
  return `${ms(min)}–${ms(max)}`
}

/** The report section. */
export function describeEndToEnd(result: EndToEndResult): string[] {
  const overhead = median(result.overhead)
  const ratio = overhead / REFERENCE_OVERHEAD_MS
  return [
    `end to end (issue 8 item 13): spawned \`dsh run\`, 61 steps, CPU time (user + system) of the child; ${result.rounds} rounds after a warm-up, order alternating`,
    `  bundle: ${result.bundle}`,
    `  load average: ${loadText(result.load.start)} at start, ${loadText(result.load.end)} at the end`,
    `  instructions on:  median ${ms(median(result.on))} (${spread(result.on)}), peak RSS ${(result.maxRssOnKiB / 1024).toFixed(0)} MiB`,
    `  instructions off: median ${ms(median(result.off))} (${spread(result.off)})`,
    `  overhead on − off: median ${ms(overhead)} (rounds ${spread(result.overhead)}); ratio to the reference's ${REFERENCE_OVERHEAD_MS} ms: ${ratio.toFixed(3)}`,
    `  goal ≤ 0.10 (${REFERENCE_OVERHEAD_MS * 0.1} ms): ${ratio <= 0.1 ? 'met' : 'NOT met'}; on the way to 0.05 (${REFERENCE_OVERHEAD_MS * 0.05} ms): ${ratio <= 0.05 ? 'met' : 'not yet'}`,
    `  start-up: \`dsh --version\` median ${ms(median(result.version))} (${spread(result.version)}); 1-step \`dsh run\` median ${ms(median(result.oneStep))} (${spread(result.oneStep)})`,
  ]
}
