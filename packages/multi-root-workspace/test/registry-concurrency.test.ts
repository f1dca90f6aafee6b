// Mutations from several processes at once are serialised by the registry lock: none is lost and
// the file stays valid. A lock whose holder died is taken over; a live holder is waited for, and a
// waiter that runs out of time fails with registry-busy naming the holder and the lock file.
import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import type { TempTree } from '@dsh/testkit'
import { rootsTree, registryOf } from './support/registry.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

const worker = fileURLToPath(new URL('./support/registry-worker.ts', import.meta.url))

function runWorker(args: readonly string[], onLine?: (line: string) => void): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', worker, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => onLine?.(chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const guard = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`worker hung: ${stderr}`))
    }, 120_000)
    child.on('close', (code) => {
      clearTimeout(guard)
      if (code !== 0) reject(new Error(`worker failed (${code}): ${stderr}`))
      else resolve(code)
    })
  })
}

describe('serialised mutations', () => {
  it('six processes adding six roots at once all land', async () => {
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

  it('waits for a live holder, and fails with registry-busy when it holds on too long', async () => {
    tree = await rootsTree()
    const lock = join(tree.path('home'), 'workspace-roots.json.lock')
    let held!: () => void
    const holding = new Promise<void>((resolve) => (held = resolve))
    const holder = runWorker(['hold-lock', lock, '1500'], (line) => line.includes('held') && held())
    await holding
    const impatient = registryOf(tree, { timeoutMs: 100 })
    await expect(impatient.add(tree.path('primary'), tree.path('lib'))).rejects.toMatchObject({ code: 'registry-busy', message: expect.stringMatching(new RegExp(`locked by process \\d+ \\(${lock.replaceAll('.', '\\.')}\\)`)) })
    const patient = registryOf(tree, { timeoutMs: 60_000 })
    await expect(patient.add(tree.path('primary'), tree.path('lib'))).resolves.toMatchObject({ state: 'available' })
    await holder
  })
})
