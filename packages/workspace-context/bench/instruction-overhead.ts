/**
 * Benchmark (issue 4): a generated monorepo (about 2,000 directories 6–8 deep, 40 instruction
 * files), 60 reads over 30 directories, one read per model step, through the real runtime with a
 * scripted model. Reports the median per-step overhead of the plugin (on minus off), the baseline
 * compose time, and stat/read calls per step against the minimum the algorithm needs.
 *
 * Run: `npx tsx packages/workspace-context/bench/instruction-overhead.ts` (wall times are
 * report-only; CI gates on the fs-call counts in test/fs-call-counts.test.ts).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { z } from 'zod'
import type { FileSystemPort, ToolDefinition } from '@dsh/contracts'
import { createLocalFileSystem } from '@dsh/fs-local'
import { createScriptedProvider } from '@dsh/llm-scripted'
import { createHost } from '@dsh/runtime'
import { createWorkspaceContextPlugin } from '../src/plugin.ts'

function rng(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648
    return state / 2147483648
  }
}

async function generate(root: string): Promise<string[]> {
  const random = rng(42)
  const dirs: string[] = []
  const leaves: string[] = []
  for (let top = 0; top < 10; top++) {
    for (let branch = 0; branch < 25; branch++) {
      const depth = 6 + Math.floor(random() * 3)
      let path = `pkg${top}`
      for (let level = 1; level < depth; level++) {
        path += `/m${level}${level === 1 ? `_${branch}` : ''}`
        dirs.push(path)
      }
      leaves.push(path)
    }
  }
  const unique = [...new Set(dirs)]
  for (const dir of unique) await mkdir(join(root, dir), { recursive: true })
  await mkdir(join(root, '.git'))
  await writeFile(join(root, 'AGENTS.md'), '# Root\nUse npm.\n')
  for (let i = 0; i < 39; i++) await writeFile(join(root, unique[Math.floor(random() * unique.length)] ?? '', 'AGENTS.md'), `Rules ${i}\n${'x'.repeat(200)}\n`)
  for (const leaf of leaves) await writeFile(join(root, leaf, 'file.ts'), 'export {}\n')
  process.stdout.write(`generated ${unique.length} directories, ${leaves.length} leaves\n`)
  return leaves
}

function counting(fs: FileSystemPort, counts: { stat: number; lstat: number; resolve: number; read: number }): FileSystemPort {
  return {
    ...fs,
    resolve: (path, options) => (counts.resolve++, fs.resolve(path, options)),
    stat: (path, signal) => (counts.stat++, fs.stat(path, signal)),
    lstat: (path, signal) => (counts.lstat++, fs.lstat(path, signal)),
    streamText: (path, options) => (counts.read++, fs.streamText(path, options)),
    readText: (path, options) => fs.readText(path, options),
  }
}

const readTool: ToolDefinition<{ file_path: string }> = {
  name: 'read',
  description: 'Reads a file.',
  parameters: z.object({ file_path: z.string() }),
  async execute(args, run) {
    const target = await run.fs.resolve(args.file_path, { cwd: run.cwd })
    await run.fs.readText(target.path)
    return { content: 'ok', touched: [{ path: target.path, kind: 'read' }] }
  },
}

async function session(root: string, files: string[], plugin: boolean) {
  const counts = { stat: 0, lstat: 0, resolve: 0, read: 0 }
  const fs = counting(createLocalFileSystem({ writableRoots: [root] }), counts)
  const host = await createHost({ dshHome: join(root, '.home'), fs, log: () => undefined })
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion, typescript/no-unnecessary-type-assertion
  host.tools.register(readTool as unknown as ToolDefinition<never>)
  if (plugin) await host.ctx.plugin(createWorkspaceContextPlugin(), { maxBytes: 65536, dshHome: join(root, '.home') })
  const responses = [...files.map((file) => ({ toolCalls: [{ name: 'read', arguments: { file_path: file } }] })), { text: 'done' }]
  const stepTimes: number[] = []
  const snapshots: (typeof counts)[] = []
  let last = performance.now()
  const agent = await host.startAgent({
    cwd: root,
    provider: createScriptedProvider({ responses }),
    onRequest: () => {
      const now = performance.now()
      stepTimes.push(now - last)
      snapshots.push({ ...counts })
      last = now
    },
  })
  await agent.prompt('go')
  await host.dispose()
  return { stepTimes, snapshots }
}

const median = (values: number[]): number => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

const root = await mkdtemp(join(tmpdir(), 'dsh-bench-'))
try {
  const leaves = await generate(root)
  const random = rng(7)
  const dirs = Array.from({ length: 30 }, () => leaves[Math.floor(random() * leaves.length)] ?? '')
  const files = Array.from({ length: 60 }, (_, i) => `${dirs[i % 30] ?? ''}/file.ts`)
  for (let warm = 0; warm < 2; warm++) await session(root, files, warm === 1)
  const on: number[][] = []
  const off: number[][] = []
  let countsOn: { stat: number; lstat: number; resolve: number; read: number }[] = []
  for (let run = 0; run < 5; run++) {
    off.push((await session(root, files, false)).stepTimes)
    const result = await session(root, files, true)
    on.push(result.stepTimes)
    countsOn = result.snapshots
  }
  const perStep = (runs: number[][]) => median(runs.map((times) => median(times.slice(1))))
  const baselineCompose = median(on.map((t) => t[0] ?? 0)) - median(off.map((t) => t[0] ?? 0))
  process.stdout.write(`baseline compose (first request, on - off): ${baselineCompose.toFixed(2)} ms\n`)
  process.stdout.write(`median per-step overhead (on - off): ${(perStep(on) - perStep(off)).toFixed(3)} ms\n`)
  const deltas = countsOn.slice(1).map((c, i) => ({ stat: c.stat - (countsOn[i]?.stat ?? 0), lstat: c.lstat - (countsOn[i]?.lstat ?? 0), resolve: c.resolve - (countsOn[i]?.resolve ?? 0), read: c.read - (countsOn[i]?.read ?? 0) }))
  const late = deltas.slice(30)
  process.stdout.write(`fs calls per step (all steps, median): stat ${median(deltas.map((d) => d.stat))}, lstat ${median(deltas.map((d) => d.lstat))}, resolve ${median(deltas.map((d) => d.resolve))}, reads ${median(deltas.map((d) => d.read))}\n`)
  process.stdout.write(`fs calls per step (second pass over the same 30 dirs, median): stat ${median(late.map((d) => d.stat))}, lstat ${median(late.map((d) => d.lstat))}, reads ${median(late.map((d) => d.read))}\n`)
} finally {
  await rm(root, { recursive: true, force: true })
}
