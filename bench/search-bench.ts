/**
 * The search benchmark of issue 22: grep and glob on a generated 30,000-file git repository of
 * which 3,000 are gitignored build files, each dsh tool call (in process, warm) timed against rg
 * (and fd for glob) run on the same tree in the same benchmark, alternating, with the ratio of
 * medians, and the extra RSS of one call: dsh's process growth (sampled every 5 ms during the call)
 * and rg's own peak (from /usr/bin/time, when present), plus the CPU time of the dsh process
 * itself during the call (its own work, without rg's, which a loaded machine does not distort as
 * much as wall time). Goals are reported, never asserted:
 * dsh ÷ rg ≤ 1.5 warm.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir, loadavg } from 'node:os'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { ToolDefinition, ToolRunContext } from '@dsh/contracts'
import { createLocalFileSystem } from '@dsh/fs-local'
import { globTool, grepTool } from '@dsh/tools'
import { seededRandom } from './seeded-random.ts'
import { median, range } from './stats.ts'

const SOURCE_FILES = 27_000
const BUILD_FILES = 3_000
const MIB = 1024 * 1024

/** Writes the repository; returns its root. */
function generate(base: string): string {
  const root = join(base, 'repo')
  const random = seededRandom(22)
  mkdirSync(root, { recursive: true })
  writeFileSync(join(root, '.gitignore'), 'dist/\n*.log\n')
  for (let i = 0; i < SOURCE_FILES; i += 1) {
    const dir = join(root, `packages/p${i % 90}/src/m${Math.floor(i / 90) % 10}`)
    if (i < 900) mkdirSync(dir, { recursive: true })
    const todo = random.next() < 0.02 ? '// TODO: revisit this\n' : ''
    const handler = random.next() < 0.01 ? `export function h${i}Handler() {}\n` : ''
    writeFileSync(join(dir, `f${i}.${i % 5 === 0 ? 'js' : 'ts'}`), `import { x } from './x'\n${todo}export const v${i} = ${i}\n${handler}${'// filler\n'.repeat(20)}`)
  }
  for (let i = 0; i < BUILD_FILES; i += 1) {
    const dir = join(root, `packages/p${i % 90}/dist`)
    if (i < 90) mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, `b${i}.js`), `// TODO generated\nexport const b${i} = ${i}\n${'// generated\n'.repeat(20)}`)
  }
  execFileSync('git', ['init', '-q'], { cwd: root })
  return root
}

function runContext(cwd: string): ToolRunContext {
  const signal = new AbortController().signal
  return {
    cwd,
    fs: createLocalFileSystem({ writableRoots: [cwd] }),
    signal,
    execution: { callId: 'bench', name: 'bench', arguments: {}, signal, token: Symbol('bench') },
    dispatch: () => Promise.reject(new Error('no dispatch in the benchmark')),
    deferContext: () => undefined,
  }
}

/** One timed tool call with its RSS growth (peak sampled during the call, MiB). */
async function timeTool<A>(tool: ToolDefinition<A>, args: A, cwd: string): Promise<{ ms: number; cpu: number; rss: number; lines: number }> {
  const before = process.memoryUsage().rss
  const cpuBefore = process.cpuUsage()
  let peak = before
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 5)
  const start = performance.now()
  const result = await tool.execute(args, runContext(cwd))
  const ms = performance.now() - start
  const cpuUsed = process.cpuUsage(cpuBefore)
  clearInterval(sampler)
  peak = Math.max(peak, process.memoryUsage().rss)
  return { ms, cpu: (cpuUsed.user + cpuUsed.system) / 1000, rss: (peak - before) / MIB, lines: result.content.split('\n').length }
}

/** One timed external run (spawn included) with its peak RSS in MiB when /usr/bin/time exists. */
function timeCommand(command: readonly string[], cwd: string): { ms: number; rss: number | undefined } {
  const timed = existsSync('/usr/bin/time')
  const argv = timed ? ['/usr/bin/time', '-f', '%M', ...command] : [...command]
  const start = performance.now()
  const run = spawnSync(argv[0] ?? '', argv.slice(1), { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' })
  const ms = performance.now() - start
  const kb = timed ? Number(run.stderr.trim().split('\n').at(-1)) : Number.NaN
  return { ms, rss: Number.isFinite(kb) ? kb / 1024 : undefined }
}

interface Query {
  readonly name: string
  readonly dsh: () => Promise<{ ms: number; cpu: number; rss: number; lines: number }>
  readonly other: readonly string[]
}

function collectGarbage(): void {
  // Present only under `node --expose-gc` (the npm script passes it).
  const gc: unknown = Reflect.get(globalThis, 'gc')
  if (typeof gc === 'function') gc()
}

/** Runs the benchmark; returns the report lines. */
export async function runSearchBench(rounds: number): Promise<string[]> {
  const base = mkdtempSync(join(tmpdir(), 'dsh-search-bench-'))
  try {
    const root = generate(base)
    const rg = createRequireResolve()
    const fd = ['fdfind', 'fd'].find((name) => spawnSync(name, ['--version'], { stdio: 'ignore' }).status === 0)
    const rgBase = [rg, '--hidden', '--glob', '!.git']
    const queries: Query[] = [
      { name: 'grep TODO (files)', dsh: () => timeTool(grepTool, { pattern: 'TODO' }, root), other: [...rgBase, '-l', 'TODO'] },
      { name: 'grep TODO (count)', dsh: () => timeTool(grepTool, { pattern: 'TODO', output_mode: 'count' }, root), other: [...rgBase, '-c', 'TODO'] },
      {
        name: 'grep \\w+Handler glob *.ts (content)',
        dsh: () => timeTool(grepTool, { pattern: 'export function \\w+Handler', glob: '*.ts', output_mode: 'content' }, root),
        other: [...rgBase, '-n', '--glob', '*.ts', 'export function \\w+Handler'],
      },
      { name: 'glob **/*.ts vs rg --files', dsh: () => timeTool(globTool, { pattern: '**/*.ts' }, root), other: [...rgBase, '--files', '--glob', '*.ts'] },
      // The same listing in glob's order (newest first): what the order itself costs rg.
      { name: 'glob **/*.ts vs rg --files --sortr modified', dsh: () => timeTool(globTool, { pattern: '**/*.ts' }, root), other: [...rgBase, '--files', '--sortr', 'modified', '--glob', '*.ts'] },
      ...(fd === undefined ? [] : [{ name: 'glob *.ts vs fd', dsh: () => timeTool(globTool, { pattern: '*.ts' }, root), other: [fd, '-H', '-E', '.git', '-t', 'f', '-g', '*.ts'] }]),
    ]
    const lines = [
      '',
      `## Search (issue 22): ${SOURCE_FILES + BUILD_FILES} files, ${BUILD_FILES} gitignored; ${rounds} warm rounds after 1 warm-up, alternating; load ${loadavg()[0]?.toFixed(1)}`,
      '| query | dsh ms (range) | other ms (range) | dsh ÷ other | dsh own CPU ms | dsh +RSS MiB | other RSS MiB | goal ≤ 1.5× |',
      '|---|---|---|---|---|---|---|---|',
    ]
    for (const query of queries) {
      await query.dsh()
      timeCommand(query.other, root)
      const dsh: { ms: number; cpu: number; rss: number }[] = []
      const other: { ms: number; rss: number | undefined }[] = []
      for (let round = 0; round < rounds; round += 1) {
        collectGarbage()
        if (round % 2 === 0) {
          dsh.push(await query.dsh())
          other.push(timeCommand(query.other, root))
        } else {
          other.push(timeCommand(query.other, root))
          dsh.push(await query.dsh())
        }
      }
      const dshMs = median(dsh.map((run) => run.ms))
      const otherMs = median(other.map((run) => run.ms))
      const ratio = dshMs / otherMs
      const dshRange = range(dsh.map((run) => run.ms))
      const otherRange = range(other.map((run) => run.ms))
      const otherRss = median(other.flatMap((run) => (run.rss === undefined ? [] : [run.rss])))
      lines.push(
        `| ${query.name} | ${dshMs.toFixed(0)} (${dshRange.min.toFixed(0)}–${dshRange.max.toFixed(0)}) | ${otherMs.toFixed(0)} (${otherRange.min.toFixed(0)}–${otherRange.max.toFixed(0)}) | ${ratio.toFixed(2)}× | ${median(dsh.map((run) => run.cpu)).toFixed(0)} | ${median(dsh.map((run) => run.rss)).toFixed(1)} | ${Number.isNaN(otherRss) ? '–' : otherRss.toFixed(1)} | ${ratio <= 1.5 ? 'met' : 'not met'} |`,
      )
    }
    return lines
  } finally {
    rmSync(base, { recursive: true, force: true })
  }
}

/** The rg that grep and glob run (the one `@vscode/ripgrep` installs). */
function createRequireResolve(): string {
  return createRequire(import.meta.url).resolve(`@vscode/ripgrep-${process.platform}-${process.arch}/bin/rg`)
}
