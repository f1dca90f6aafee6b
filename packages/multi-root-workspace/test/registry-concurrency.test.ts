// Mutations from several processes at once are serialised by the registry lock: none is lost and
// the file stays valid. A lock whose holder died is taken over; a live holder is waited for, and a
// waiter that runs out of time fails with registry-busy naming the holder and the lock file.
import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildSync } from 'esbuild'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { rootsTree, registryOf } from './support/registry.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

const workerSource = fileURLToPath(new URL('./support/registry-worker.ts', import.meta.url))
// The worker bundled once into plain JavaScript: a Node that starts it compiles nothing (through
// tsx, six workers starting at once took a minute on a loaded machine).
let bundleDir: TempTree
let worker = ''
beforeAll(async () => {
  bundleDir = await tempTree({}, 'dsh-registry-worker-')
  worker = bundleDir.path('registry-worker.mjs')
  buildSync({ entryPoints: [workerSource], outfile: worker, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' })
})
afterAll(async () => bundleDir.dispose())
/** Six fresh Nodes starting at once are slow on a loaded machine: a generous hang guard. */
const WORKER_GUARD_MS = 120_000

/** A worker process; `done` resolves with its exit code 0 (rejects otherwise); `release` closes its stdin. */
function startWorker(args: readonly string[], onLine?: (line: string) => void): { readonly done: Promise<number | null>; readonly release: () => void } {
  const child = spawn(process.execPath, [worker, ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
  const done = new Promise<number | null>((resolve, reject) => {
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => onLine?.(chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const guard = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`worker hung: ${stderr}`))
    }, WORKER_GUARD_MS)
    child.on('close', (code) => {
      clearTimeout(guard)
      if (code !== 0) reject(new Error(`worker failed (${code}): ${stderr}`))
      else resolve(code)
    })
  })
  return { done, release: () => child.stdin.end() }
}

const runWorker = (args: readonly string[]): Promise<number | null> => startWorker(args).done

describe('serialised mutations', () => {
  it('six processes adding six roots at once all land', { timeout: WORKER_GUARD_MS }, async () => {
    tree = await rootsTree()
    const dirs = Array.from({ length: 6 }, (_, index) => tree.path(`root-${index}`))
    for (const dir of dirs) mkdirSync(dir)
    await Promise.all(dirs.map((dir) => runWorker(['add', tree.path('home'), tree.path('primary'), dir])))
    const listed = registryOf(tree).list(tree.path('primary'))
    expect(listed.problem).toBeUndefined()
    expect(listed.roots.map((root) => root.path).toSorted()).toEqual(dirs.toSorted())
    expect(new Set(listed.roots.map((root) => root.id)).size).toBe(6)
  })

  it('takes over a lock left by a process that no longer exists', async () => {
    tree = await rootsTree()
    const lock = tree.path('home/workspace-roots.json.lock')
    // pid 2^22 + 1 is above Linux's pid_max default range and never a live process here.
    writeFileSync(lock, JSON.stringify({ pid: 4_194_305, host: (await import('node:os')).hostname(), token: 'dead', at: Date.now() }))
    await expect(registryOf(tree, { timeoutMs: 200 }).add(tree.path('primary'), tree.path('lib'))).resolves.toMatchObject({ state: 'available' })
    expect(() => readFileSync(lock)).toThrow(/ENOENT/)
  })

  it('takes over a lock that cannot be parsed (nothing this code wrote)', async () => {
    tree = await rootsTree()
    writeFileSync(tree.path('home/workspace-roots.json.lock'), '')
    await expect(registryOf(tree, { timeoutMs: 200 }).add(tree.path('primary'), tree.path('lib'))).resolves.toMatchObject({ state: 'available' })
  })

  it('waits for a live holder, and fails with registry-busy when it holds on too long', { timeout: WORKER_GUARD_MS }, async () => {
    tree = await rootsTree()
    const lock = join(tree.path('home'), 'workspace-roots.json.lock')
    let held!: () => void
    const holding = new Promise<void>((resolve) => (held = resolve))
    // The holder keeps the lock until it is released, however long the waiters below take.
    const holder = startWorker(['hold-lock', lock], (line) => line.includes('held') && held())
    await holding
    const impatient = registryOf(tree, { timeoutMs: 100 })
    await expect(impatient.add(tree.path('primary'), tree.path('lib'))).rejects.toMatchObject({ code: 'registry-busy', message: expect.stringMatching(new RegExp(`locked by process \\d+ \\(${lock.replaceAll('.', '\\.')}\\)`)) })
    let added = false
    const patient = registryOf(tree, { timeoutMs: 60_000 })
      .add(tree.path('primary'), tree.path('lib'))
      .then((root) => {
        added = true
        return root
      })
    // Whatever the patient one did meanwhile, it cannot have added anything while the lock is held.
    await new Promise((resolve) => setImmediate(resolve))
    expect(added).toBe(false)
    holder.release()
    await expect(patient).resolves.toMatchObject({ state: 'available' })
    await holder.done
  })
})
