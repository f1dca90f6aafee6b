// One writer per session: refusals while held, takeover after a real crash, old lock files, and
// a stress test of 8 processes racing over a stale lock 200 times with a critical-section check.
import { fork, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { SessionStore } from '../src/index.ts'

let tree: TempTree
const children: ChildProcess[] = []
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL')
  await tree?.dispose()
})

function store() {
  return new SessionStore({ directory: tree.path('sessions'), clock: () => new Date('2026-01-02T03:04:05Z'), warn: () => undefined })
}

const worker = fileURLToPath(new URL('./lock-race-worker.ts', import.meta.url))

/** The pid of a process that has exited (a holder that crashed). */
function deadPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
    child.on('error', reject)
    child.on('exit', () => resolve(child.pid ?? 0))
  })
}

/** Writes what a holder that crashed leaves behind: the next generation, naming a dead pid. */
function staleGeneration(lockDir: string, pid: number): void {
  mkdirSync(lockDir, { recursive: true })
  const top = Math.max(0, ...readdirSync(lockDir).filter((name) => /^\d+$/.test(name)).map(Number))
  writeFileSync(join(lockDir, String(top + 1)), `${pid} 1 crashed-holder\n`)
}

/** Critical sections that began while another was still open, from `+ PID` / `- PID` lines. */
function overlaps(lines: readonly string[]): number {
  let inside: string | undefined
  let count = 0
  for (const line of lines) {
    const [mark, pid] = line.split(' ')
    if (mark === '+') {
      if (inside !== undefined) count += 1
      inside = pid
    } else if (mark === '-') {
      if (inside !== pid) count += 1
      inside = undefined
    }
  }
  return count
}

function startWorker(): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = fork(worker, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    children.push(child)
    child.once('message', () => resolve(child))
    child.once('error', reject)
  })
}

function answer(child: ChildProcess, round: number): Promise<{ attempts?: number; error?: string }> {
  return new Promise((resolve) => {
    const onMessage = (message: { round?: number; attempts?: number; error?: string }) => {
      if (message.round !== round) return
      child.off('message', onMessage)
      resolve(message)
    }
    child.on('message', onMessage)
  })
}

describe('session lock', () => {
  it('a second writer is refused while the first holds the session; readers are not; it is free after close', async () => {
    tree = await tempTree()
    const first = store().create({ cwd: tree.root })
    expect(() => store().open(first.id)).toThrow(new RegExp(`^session ${first.id} is open in this process; close it there first \\(lock ${tree.path(`sessions/.locks/${first.id}`)}\\)$`))
    expect(store().load(first.id).id).toBe(first.id)
    first.close()
    const second = store().open(first.id)
    second.append('turn/start', { turn: 1 })
    second.close()
  })

  it('the lock of a writer killed with SIGKILL is taken over, and the old generations are cleaned up', async () => {
    tree = await tempTree()
    const session = store().create({ cwd: tree.root })
    session.close()
    const lockDir = tree.path(`sessions/.locks/${session.id}`)
    // A child process that takes the lock and waits to be killed.
    const script = `import { lockSession } from ${JSON.stringify(new URL('../src/session-lock.ts', import.meta.url).href)}; lockSession({ directory: ${JSON.stringify(tree.path('sessions'))}, sessionId: ${JSON.stringify(session.id)} }); process.send({ locked: true }); setInterval(() => {}, 1000)`
    const file = tree.path('hold.ts')
    writeFileSync(file, script)
    const crashing = fork(file, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    children.push(crashing)
    await new Promise((resolve) => crashing.once('message', resolve))
    expect(() => store().open(session.id)).toThrow(`session ${session.id} is open in process ${crashing.pid}; close it there first`)
    crashing.kill('SIGKILL')
    await new Promise((resolve) => crashing.once('exit', resolve))
    const reopened = store().open(session.id)
    expect(readdirSync(lockDir).filter((name) => !name.endsWith('.tmp'))).toHaveLength(1)
    reopened.close()
  })

  it('a lock whose pid was reused by another process (a restarted container) is stale', async () => {
    tree = await tempTree()
    const session = store().create({ cwd: tree.root })
    session.close()
    staleGeneration(tree.path(`sessions/.locks/${session.id}`), process.pid)
    store().open(session.id).close()
  })

  it('a lock file of an older dsh is honoured while its writer lives and removed after it died', async () => {
    tree = await tempTree()
    const session = store().create({ cwd: tree.root })
    session.close()
    const legacy = tree.path(`sessions/${session.id}.lock`)
    const stat = readFileSync(`/proc/${process.pid}/stat`, 'utf8')
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
    writeFileSync(legacy, `${process.pid} ${start} old-token\n`)
    expect(() => store().open(session.id)).toThrow(`session ${session.id} is open in this process; close it there first (lock ${legacy})`)
    writeFileSync(legacy, `${await deadPid()} 1 old-token\n`)
    store().open(session.id).close()
    expect(existsSync(legacy)).toBe(false)
  })

  it('8 processes racing 200 times over a stale lock never overlap inside the lock', { timeout: 240_000 }, async () => {
    tree = await tempTree({ 'sessions/': null })
    const sessionId = '20260102-030405-race'
    const lockDir = tree.path(`sessions/.locks/${sessionId}`)
    const shared = tree.path('critical.log')
    writeFileSync(shared, '')
    const workers = await Promise.all(Array.from({ length: 8 }, () => startWorker()))
    const dead = await deadPid()
    let attempts = 0
    for (let round = 1; round <= 200; round++) {
      staleGeneration(lockDir, dead)
      const answers = await Promise.all(
        workers.map((child) => {
          const reply = answer(child, round)
          child.send({ round, directory: tree.path('sessions'), sessionId, shared })
          return reply
        }),
      )
      expect(answers.filter((reply) => reply.error !== undefined)).toEqual([])
      attempts += answers.reduce((sum, reply) => sum + (reply.attempts ?? 0), 0)
    }
    const lines = readFileSync(shared, 'utf8').trimEnd().split('\n')
    expect(lines).toHaveLength(2 * 8 * 200)
    expect(overlaps(lines)).toBe(0)
    expect(attempts).toBeGreaterThan(8 * 200)
    expect(readdirSync(lockDir).filter((name) => !name.endsWith('.tmp'))).toHaveLength(1)
  })
})
