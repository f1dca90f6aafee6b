/**
 * The session benchmark of issue 7 ("Linear-time load and listing"): resume and list times with
 * peak RSS for never-compacted sessions of 10,000 / 100,000 / 300,000 events, and a listing of
 * 1,000 sessions of which one is 200 MB. Each measurement runs in a fresh process
 * (`session-measure.ts`, bundled by esbuild as the CLI is), so its peak RSS is its own and
 * compares with what `dsh` itself uses. Goals are reported, never asserted:
 * resume of 100,000 events < 1.0 s and < 300 MB; that listing < 0.5 s and < 100 MB.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { buildSync } from 'esbuild'
import { z } from 'zod'
import { bundlePath, spawnMeasured } from './end-to-end.ts'
import { writeSessionFixture } from './session-fixture.ts'
import { seededRandom } from './seeded-random.ts'
import { median } from './stats.ts'

const SIZES = [10_000, 100_000, 300_000] as const
const MIB = 1024 * 1024

const times = z.array(z.number())
const resumeResult = z.object({ resumeMs: times, resumeCpuMs: times, firstRequestMs: times, peakRss: z.number(), baselineRss: z.number() })
const listResult = z.object({ coldMs: times, warmMs: times, rows: z.number(), peakRss: z.number(), baselineRss: z.number() })
type ResumeResult = z.infer<typeof resumeResult>

/** Bundles `session-measure.ts` as the CLI is bundled, so a measuring process weighs what `dsh` weighs. */
function bundleMeasure(root: string): string {
  const outfile = join(root, 'session-measure.mjs')
  buildSync({
    entryPoints: [fileURLToPath(new URL('./session-measure.ts', import.meta.url))],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    banner: { js: "import { createRequire as __dshCreateRequire } from 'node:module'; const require = __dshCreateRequire(import.meta.url);" },
  })
  return outfile
}

function measure<S extends z.ZodType>(schema: S, script: string, args: readonly string[]): z.infer<S> {
  return schema.parse(JSON.parse(execFileSync(process.execPath, ['--expose-gc', script, ...args], { encoding: 'utf8', maxBuffer: 1 << 20 })))
}

const ms = (value: number): string => `${value.toFixed(value < 10 ? 2 : 0)} ms`
const mib = (bytes: number): string => `${Math.round(bytes / MIB)} MiB`
const verdict = (met: boolean): string => (met ? 'met' : 'NOT met')

/** Runs every measurement and returns the report lines. */
export function runSessionBench(rounds: number): string[] {
  const root = mkdtempSync(join(tmpdir(), 'dsh-session-bench-'))
  const lines = ['', 'session log (issue 7): resume and list, each in a fresh process bundled like dsh (peak RSS is the whole process)']
  try {
    const script = bundleMeasure(root)
    lines.push(`  load average at start: ${loadavg().map((value) => value.toFixed(1)).join(' ')} (wall times stretch with it; CPU time less so)`)
    lines.push('  events   file      resume  (CPU)           first request  CPU/1k events  peak RSS   list cold  list warm  list RSS')
    const perThousand: number[] = []
    let resume100k: ResumeResult | undefined
    for (const size of SIZES) {
      const home = join(root, `home-${size}`)
      const fixture = writeSessionFixture({ directory: join(home, 'sessions'), id: `20260102-030405-e${size}`, cwd: home, events: size })
      const resumed = measure(resumeResult, script, ['resume', home, fixture.id, String(size >= 300_000 ? Math.min(rounds, 3) : rounds)])
      const listed = measure(listResult, script, ['list', join(home, 'sessions'), String(Math.min(rounds, 3))])
      const resumeMedian = median(resumed.resumeMs)
      const cpuPerThousand = median(resumed.resumeCpuMs) / (fixture.events / 1000)
      perThousand.push(cpuPerThousand)
      if (size === 100_000) resume100k = resumed
      lines.push(
        `  ${String(fixture.events).padStart(7)}  ${mib(fixture.bytes).padStart(7)}  ${ms(resumeMedian).padStart(8)}  (${ms(median(resumed.resumeCpuMs))})`.padEnd(44) + `  ${ms(median(resumed.firstRequestMs)).padStart(13)}  ${ms(cpuPerThousand).padStart(13)}  ${mib(resumed.peakRss).padStart(8)}  ${ms(median(listed.coldMs)).padStart(9)}  ${ms(median(listed.warmMs)).padStart(9)}  ${mib(listed.peakRss).padStart(8)}`,
      )
    }
    const linearity = (perThousand.at(-1) ?? Number.NaN) / (perThousand[0] ?? Number.NaN)
    lines.push(`  resume CPU time per event, 300k vs 10k: ${linearity.toFixed(2)}x (1.0 = linear; the old copy-per-append surface grew with the history)`)

    const many = join(root, 'many', 'sessions')
    const random = seededRandom(11)
    const big = writeSessionFixture({ directory: many, id: '20260101-000000-big', cwd: root, bytes: 200 * 1_000_000 })
    for (let index = 0; index < 999; index++) writeSessionFixture({ directory: many, id: `20260102-${String(index).padStart(6, '0')}-small`, cwd: root, events: random.between(20, 400), seed: index })
    const listed = measure(listResult, script, ['list', many, String(Math.min(rounds, 3))])
    lines.push(`  list of ${listed.rows} sessions (one of ${mib(big.bytes)}, ${big.events} events): cold ${ms(median(listed.coldMs))} (no index: every file scanned), warm ${ms(median(listed.warmMs))}, peak RSS ${mib(listed.peakRss)} (before listing ${mib(listed.baselineRss)})`)
    // What a user runs: the built `dsh sessions list` over the same sessions (index warm), its own peak RSS.
    const built = Array.from({ length: 3 }, () => spawnMeasured(bundlePath(), ['sessions', 'list', '--dsh-home', join(root, 'many')], join(root, 'usage.json')))
    const builtRss = median(built.map((usage) => usage.maxRssKiB * 1024))
    lines.push(`  the built \`dsh sessions list\` over them: peak RSS ${mib(builtRss)}, CPU ${ms(median(built.map((usage) => usage.cpuMs)))} (median of 3)`)

    const resumeMedian = resume100k === undefined ? Number.NaN : median(resume100k.resumeMs)
    const resumeRss = resume100k?.peakRss ?? Number.NaN
    const warm = median(listed.warmMs)
    const cold = median(listed.coldMs)
    lines.push(
      'goals (issue 7):',
      `  resume of 100,000 events < 1.0 s: ${verdict(resumeMedian < 1000)} (${ms(resumeMedian)}, CPU ${ms(median(resume100k?.resumeCpuMs ?? []))}; first request ${ms(median(resume100k?.firstRequestMs ?? []))})`,
      `  resume of 100,000 events < 300 MB RSS: ${verdict(resumeRss < 300 * 1_000_000)} (${mib(resumeRss)} peak; before loading ${mib(resume100k?.baselineRss ?? Number.NaN)})`,
      `  list 1,000 sessions incl. 200 MB < 0.5 s: ${verdict(warm < 500)} with the index (${ms(warm)}); ${verdict(cold < 500)} when it is rebuilt (${ms(cold)})`,
      `  list 1,000 sessions incl. 200 MB < 100 MB RSS: ${verdict(builtRss < 100 * 1_000_000)} (the built \`dsh sessions list\`: ${mib(builtRss)} peak; the measuring process, which also loads the agent's composition for resume: ${mib(listed.peakRss)})`,
    )
    lines.push(`  load average at the end: ${loadavg().map((value) => value.toFixed(1)).join(' ')}`)
    return lines
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
