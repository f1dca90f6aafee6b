/**
 * `npm run bench:checkpoints` (issue 25): the cost checkpoints add, measured in process on the
 * capture code itself. A git repository of 10,000 committed files (500 directories of 20) is
 * generated in a temp directory; then, per round, one shell call's capture (the sync of the root
 * before the command and after it, with the command changing one file in between) and one
 * `write`'s capture (pre-image before, the result after) are timed, and a shell call that
 * changes nothing. The medians are reported against the issue's goals (≤ 15 ms per bash call,
 * ≤ 2 ms per write/edit), not enforced: fsync latency of the disk dominates, so the write cost is
 * also given as a ratio to one durable small-file write measured in the same process (create,
 * write, fdatasync, close, directory fsync: the least a kept pre-image can cost). Last, a 20-turn
 * session (each turn: a write, an edit and a shell change of 3 files) reports the checkpoint
 * bytes stored. `DSH_BENCH_CHECKPOINT_ROUNDS` sets the rounds (default 30).
 */
import { execFileSync } from 'node:child_process'
import { appendFileSync, closeSync, fdatasyncSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SessionCapture } from '../packages/checkpoints/src/session-capture.ts'
import { median } from './stats.ts'

const rounds = Number(process.env['DSH_BENCH_CHECKPOINT_ROUNDS'] ?? '') || 30

function generateRepo(root: string, directories: number, perDirectory: number): void {
  for (let d = 0; d < directories; d++) {
    const dir = join(root, `pkg-${d}`, 'src')
    mkdirSync(dir, { recursive: true })
    for (let f = 0; f < perDirectory; f++) writeFileSync(join(dir, `file-${f}.ts`), `export const value${d}_${f} = ${d * perDirectory + f}\n// filler ${'x'.repeat(200)}\n`)
  }
  writeFileSync(join(root, '.gitignore'), 'node_modules/\ndist/\n')
  execFileSync('git', ['init', '-q', root])
  execFileSync('git', ['-C', root, 'add', '-A'])
  execFileSync('git', ['-C', root, '-c', 'user.email=b@example.com', '-c', 'user.name=b', 'commit', '-qm', 'bench'])
}

function bytesUnder(directory: string): number {
  let total = 0
  for (const entry of readdirSync(directory, { withFileTypes: true, recursive: true })) if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size
  return total
}

const time = async (step: () => unknown): Promise<number> => {
  const start = process.hrtime.bigint()
  await step()
  return Number(process.hrtime.bigint() - start) / 1e6
}

const base = mkdtempSync(join(tmpdir(), 'dsh-checkpoint-bench-'))
try {
  const repo = join(base, 'repo')
  const home = join(base, 'home')
  generateRepo(repo, 500, 20)
  const capture = new SessionCapture(home, 'bench-session', { maxFileBytes: 5 * 1024 * 1024, maxBytes: 1024 * 1024 * 1024 })
  const roots = [repo]
  const first = await time(() => capture.beforeShell(roots))
  const shell: number[] = []
  const idle: number[] = []
  const write: number[] = []
  const flushed: number[] = []
  const scratch = join(base, 'scratch')
  mkdirSync(scratch)
  for (let round = 0; round < rounds; round++) {
    const turn = round + 1
    const beforeShell = await time(() => capture.beforeShell(roots))
    appendFileSync(join(repo, `pkg-${round % 500}`, 'src', 'file-0.ts'), `// round ${round}\n`)
    shell.push(beforeShell + (await time(() => capture.afterShell(turn, roots, 'bash'))))
    idle.push((await time(() => capture.beforeShell(roots))) + (await time(() => capture.afterShell(turn, roots, 'bash'))))
    const target = join(repo, `pkg-${(round + 7) % 500}`, 'src', 'file-1.ts')
    const beforeWrite = await time(() => capture.beforeWrite(turn, roots, target, 'write'))
    writeFileSync(target, `export const rewritten = ${round}\n`)
    write.push(beforeWrite + (await time(() => capture.afterWrite(turn, roots, target))))
    flushed.push(
      await time(() => {
        const handle = openSync(join(scratch, `file-${round}`), 'wx')
        writeSync(handle, `export const rewritten = ${round}\n`)
        fdatasyncSync(handle)
        closeSync(handle)
        const directory = openSync(scratch, 'r')
        fsyncSync(directory)
        closeSync(directory)
      }),
    )
  }
  const session = new SessionCapture(home, 'bench-twenty', { maxFileBytes: 5 * 1024 * 1024, maxBytes: 1024 * 1024 * 1024 })
  await session.beforeShell(roots)
  for (let turn = 1; turn <= 20; turn++) {
    const written = join(repo, 'pkg-1', 'src', `new-${turn}.ts`)
    session.beforeWrite(turn, roots, written, 'write')
    writeFileSync(written, `export const created = ${turn}\n`)
    session.afterWrite(turn, roots, written)
    const edited = join(repo, 'pkg-2', 'src', 'file-3.ts')
    session.beforeWrite(turn, roots, edited, 'edit')
    appendFileSync(edited, `// edit ${turn}\n`)
    session.afterWrite(turn, roots, edited)
    await session.beforeShell(roots)
    for (const name of ['file-4.ts', 'file-5.ts', 'file-6.ts']) appendFileSync(join(repo, 'pkg-3', 'src', name), `// shell ${turn}\n`)
    await session.afterShell(turn, roots, 'bash')
  }
  const shellMedian = median(shell)
  const writeMedian = median(write)
  console.log(`checkpoints in a 10,000-file git repository, ${rounds} rounds (2-vCPU machine, shared)`)
  console.log(`  first sync of the session (lists the root, reads the index): ${first.toFixed(1)} ms`)
  console.log(`  per bash call (sync before + after, one file changed): median ${shellMedian.toFixed(1)} ms, goal ≤ 15 ms: ${shellMedian <= 15 ? 'met' : 'NOT met'}`)
  console.log(`  per bash call that changes nothing (ls, tests): median ${median(idle).toFixed(2)} ms`)
  const flushMedian = median(flushed)
  console.log(`  per write/edit (pre-image + result): median ${writeMedian.toFixed(2)} ms, goal ≤ 2 ms: ${writeMedian <= 2 ? 'met' : 'NOT met'}; ${(writeMedian / flushMedian).toFixed(2)}× one durable small-file write here (median ${flushMedian.toFixed(2)} ms)`)
  capture.close()
  session.close()
  console.log(`  20-turn session (write + edit + 3 shell changes per turn): ${bytesUnder(join(home, 'checkpoints', 'bench-twenty'))} checkpoint bytes on disk`)
} finally {
  rmSync(base, { recursive: true, force: true })
}
