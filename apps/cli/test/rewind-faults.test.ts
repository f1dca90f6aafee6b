// Rewind under faults, through the built binary: a session another process runs is refused with
// one line naming that process; a turn SIGKILLed while a command runs leaves whole checkpoints
// whose objects match their names, and rewinds; a rewind killed (SIGKILL) at every step — after its journal,
// after each file, after its record, after its conversation marker — leaves, once the next dsh
// rewind (or the next run of the session) ran, the tree exactly as before the rewind or exactly as
// after it, and nothing else.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import type { ModelScript } from '@dsh/llm-scripted'
import { dshBinary, runDsh, sessionIdOf, testEnv, writeScript } from './run-dsh.ts'
import { snapshot } from './tree-snapshot.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

const call = (name: string, args: Record<string, unknown>) => ({ toolCalls: [{ name, arguments: args }] })

async function dsh(args: readonly string[], script?: ModelScript, env: Record<string, string> = {}) {
  const [command = '', ...rest] = args
  const model = script === undefined ? [] : ['--model', `scripted:${writeScript(tree.path('scripts'), `s${Math.random().toString(36).slice(2)}.json`, script)}`]
  return runDsh(['--dsh-home', tree.path('home'), command, ...model, ...rest], { cwd: tree.path('repo'), env: { TMPDIR: tree.path('tmp'), ...env } })
}

/** Starts a dsh rewind that stops at `step` and resolves once it printed that it paused there; then kills it. */
function killedAt(args: readonly string[], step: string): Promise<'paused' | 'finished'> {
  return new Promise((resolve, reject) => {
    const child = spawn(dshBinary, ['--dsh-home', tree.path('home'), ...args], { cwd: tree.path('repo'), env: testEnv(tree.path('repo'), { TMPDIR: tree.path('tmp'), DSH_TEST_REWIND_PAUSE: step }), stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
      if (stderr.includes('paused at ')) child.kill('SIGKILL')
    })
    child.on('error', reject)
    child.on('close', () => resolve(stderr.includes('paused at ') ? 'paused' : 'finished'))
  })
}

describe('rewind faults', () => {
  it('refuses a session another process has open, naming the process', async () => {
    tree = await tempTree({ 'repo/a.txt': 'a\n', 'scripts/': null, 'tmp/': null })
    const script = { responses: [call('bash', { command: 'touch started; while [ ! -e release ]; do sleep 0.05; done' }), { text: 'done' }] }
    const running = dsh(['run', 'wait'], script)
    await expect.poll(() => existsSync(tree.path('repo/started')), { timeout: 30_000 }).toBe(true)
    const sessions = await dsh(['sessions', 'list', '--json'])
    const id = /"id": "([^"]+)"/.exec(sessions.stdout)?.[1] ?? ''
    expect(id).not.toBe('')
    const busy = await dsh(['rewind', id, '--to', '1'])
    expect(busy.code).toBe(1)
    expect(busy.stderr).toMatch(new RegExp(`^dsh: session ${id} is open in (process \\d+|another process)[^\\n]*close it there first`, 'm'))
    writeFileSync(tree.path('repo/release'), '')
    expect((await running).code).toBe(0)
  })

  it('a turn killed in the middle leaves whole checkpoints whose objects are intact, and rewinds', async () => {
    tree = await tempTree({ 'repo/a.txt': 'a\n', 'scripts/': null, 'tmp/': null })
    const script = {
      responses: [
        call('write', { file_path: 'a.txt', content: 'rewritten\n' }),
        call('write', { file_path: 'new.txt', content: 'new\n' }),
        // It outlives the killed dsh (shell commands may leave processes behind) and ends once the test removes its marker.
        call('bash', { command: 'touch started; while [ -e started ]; do sleep 0.05; done' }),
        { text: 'never' },
      ],
    }
    const child = spawn(dshBinary, ['--dsh-home', tree.path('home'), 'run', '--model', `scripted:${writeScript(tree.path('scripts'), 'killed.json', script)}`, 'go'], { cwd: tree.path('repo'), env: testEnv(tree.path('repo'), { TMPDIR: tree.path('tmp') }), stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise((resolve) => child.on('close', resolve))
    await expect.poll(() => existsSync(tree.path('repo/started')), { timeout: 30_000 }).toBe(true)
    child.kill('SIGKILL')
    await exited
    const id = sessionIdOf(stderr)
    // Every line of the turn's log is whole (a killed writer leaves whole lines) and names only intact objects.
    const lines = readFileSync(tree.path(`home/checkpoints/${id}/turns/1.jsonl`), 'utf8').split('\n')
    expect(lines.pop()).toBe('')
    const blobs = lines.flatMap((line) => JSON.stringify(JSON.parse(line)).match(/[0-9a-f]{64}/g) ?? [])
    expect(blobs.length).toBeGreaterThan(0)
    for (const blob of blobs) expect(createHash('sha256').update(readFileSync(tree.path(`home/checkpoints/${id}/objects/${blob.slice(0, 2)}/${blob.slice(2)}`))).digest('hex')).toBe(blob)
    rmSync(tree.path('repo/started'))
    const rewound = await dsh(['rewind', id, '--to', '1'])
    expect(rewound.code, rewound.stderr).toBe(0)
    expect(snapshot(tree.path('repo'))).toEqual({ 'a.txt': expect.stringMatching(/^644 /) })
    expect(readFileSync(tree.path('repo/a.txt'), 'utf8')).toBe('a\n')
  })

  it('leaves the tree in the state before or after a rewind killed at any step', async () => {
    tree = await tempTree({ 'repo/a.txt': 'a\n', 'repo/b.txt': 'b\n', 'repo/c.txt': 'c\n', 'scripts/': null, 'tmp/': null })
    const script = {
      responses: [call('bash', { command: 'echo more >> a.txt; rm b.txt; mv c.txt d.txt; chmod 700 a.txt; echo new > e.txt' }), call('write', { file_path: 'f.txt', content: 'f\n' }), { text: 'done' }],
    }
    const run = await dsh(['run', 'change'], script)
    expect(run.code, run.stderr).toBe(0)
    const id = sessionIdOf(run.stderr)
    const after = snapshot(tree.path('repo'))
    const rewound = await dsh(['rewind', id, '--to', '1'])
    expect(rewound.code, rewound.stderr).toBe(0)
    const before = snapshot(tree.path('repo'))
    expect(Object.keys(before)).toEqual(['a.txt', 'b.txt', 'c.txt'])
    expect(before['a.txt']).toMatch(/^644 /)
    expect((await dsh(['rewind', id, '--undo'])).code).toBe(0)
    expect(snapshot(tree.path('repo'))).toEqual(after)
    // Steps are numbered in the order the rewind reaches them: journal, each file, record, marker.
    for (let step = 1; step <= 9; step++) {
      const outcome = await killedAt(['rewind', id, '--to', '1'], String(step))
      expect(outcome, `step ${step}`).toBe('paused')
      const recovered = await dsh(['rewind', id, '--list'])
      expect(recovered.code, recovered.stderr).toBe(0)
      const now = snapshot(tree.path('repo'))
      expect([JSON.stringify(before), JSON.stringify(after)], `killed at step ${step} (${outcome})`).toContain(JSON.stringify(now))
      // Back to the state after the turn for the next round, whichever state the kill left.
      if (JSON.stringify(now) === JSON.stringify(before)) expect((await dsh(['rewind', id, '--undo'])).code).toBe(0)
      expect(snapshot(tree.path('repo'))).toEqual(after)
      expect(existsSync(join(tree.path('home'), 'checkpoints', id, 'journal.json'))).toBe(false)
    }
    // The next run of the session finishes the job too: killed among the files, then resumed.
    expect(await killedAt(['rewind', id, '--to', '1'], '4')).toBe('paused')
    const resumed = await dsh(['run', '--resume', id, 'go on'], { responses: [{ text: 'ok' }] })
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(resumed.stderr).toMatch(/^note: an interrupted rewind of session \S+ was (completed|rolled back)$/m)
    expect([JSON.stringify(before), JSON.stringify(after)]).toContain(JSON.stringify(snapshot(tree.path('repo'))))
    expect(existsSync(join(tree.path('home'), 'checkpoints', id, 'journal.json'))).toBe(false)
  })
})
