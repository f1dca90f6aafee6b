// A terminal window closed while dsh runs, for real: the pseudo-terminal's master is closed (the
// kernel sends SIGHUP, terminal I/O fails with EIO). dsh run and dsh chat end like SIGHUP: the
// running tool and what it left behind (a setsid escape, a run_code snippet's detached child)
// end, the turn is closed as cancelled, exit 129 — not a Node assertion crash (SIGABRT/SIGSEGV).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { plainText, runPty } from './chat-harness.ts'
import { runDsh, writeScript } from './run-dsh.ts'
import { hostPidOf, isAlive, StartedProcesses } from './test-processes.ts'

let tree: TempTree
const started = new StartedProcesses()
afterEach(async () => {
  // A failing test must not leave its sleepers behind.
  started.endAll()
  await tree?.dispose()
})

async function gone(pids: readonly number[]): Promise<boolean> {
  const deadline = Date.now() + 10_000
  while (pids.some(isAlive)) {
    if (Date.now() > deadline) return false
    await new Promise((wake) => setTimeout(wake, 25))
  }
  return true
}

/**
 * The host pids of the sleepers whose `sleep` arguments are `naps`, once their pid files exist (the
 * pids in the files are the sandbox's own pid namespace's). After dsh exited, none should be found.
 */
function sleepersOf(files: readonly string[], naps: readonly string[]): number[] {
  expect(files.every((file) => existsSync(file) && readFileSync(file, 'utf8').trim() !== '')).toBe(true)
  const pids = naps.map((nap) => hostPidOf(['sleep', nap]))
  started.add(...pids)
  return pids
}

function lastTurnEnd(home: string, id: string): unknown {
  const lines = readFileSync(`${home}/sessions/${id}.jsonl`, 'utf8').trim().split('\n')
  return lines.map((line): unknown => JSON.parse(line)).findLast((event) => typeof event === 'object' && event !== null && 'type' in event && event.type === 'turn/end')
}

const sessionIn = (transcript: string): string => /session: (\S+)/.exec(plainText(transcript))?.[1] ?? ''

/** Unique sleep arguments of this run's sleepers: outside the sandbox they are found by their command lines. */
const naps = { setsid: `1001.${process.pid}`, shell: `1002.${process.pid}`, snippet: `1003.${process.pid}` }

/** Leaves a setsid escape behind, writes its pid, then blocks. */
const setsidThenSleep = `setsid sh -c 'echo $$ > setsid.pid; exec sleep ${naps.setsid}' >/dev/null 2>&1 &\nwhile [ ! -s setsid.pid ]; do sleep 0.02; done\necho $$ > shell.pid\nsleep ${naps.shell}`

describe('a terminal that hangs up', () => {
  it('ends dsh run like SIGHUP: its tool and a setsid escape end, the turn is closed as cancelled, exit 129', { timeout: 120_000 }, async () => {
    tree = await tempTree({ 'repo/': null })
    const home = tree.path('home')
    const script = writeScript(tree.root, 'hang.json', { responses: [{ toolCalls: [{ name: 'bash', arguments: { command: setsidThenSleep } }] }] })
    const pidFile = tree.path('repo/shell.pid')
    const result = await runPty(['--dsh-home', home, 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, 'start the sleepers'], [{ expect: 'session: \\S+' }, { file: pidFile, timeout: 30 }, { hangup: true }, { exit: 129, timeout: 30 }], { cwd: tree.root, timeoutMs: 90_000 })
    expect(result.exitCode).toBe(129)
    expect(await gone(sleepersOf([pidFile, tree.path('repo/setsid.pid')], [naps.setsid, naps.shell]))).toBe(true)
    expect([naps.setsid, naps.shell].map((nap) => hostPidOf(['sleep', nap]))).toEqual([0, 0])
    const id = sessionIn(result.transcript)
    expect(lastTurnEnd(home, id)).toMatchObject({ data: { turn: 1, reason: 'cancelled' } })
    const next = writeScript(tree.root, 'next.json', { responses: [{ text: 'resumed' }] })
    expect(await runDsh(['--dsh-home', home, 'run', '--model', `scripted:${next}`, '--resume', id, 'go on'], { cwd: tree.root })).toMatchObject({ code: 0, stdout: 'resumed\n' })
  })

  it("ends dsh chat like SIGHUP: a run_code snippet's detached child ends, the turn is closed as cancelled, exit 129", { timeout: 120_000 }, async () => {
    tree = await tempTree({ 'repo/': null })
    const home = tree.path('home')
    const code = [
      "const { spawn } = await import('node:child_process')",
      "const { writeFileSync } = await import('node:fs')",
      `const child = spawn('sleep', ['${naps.snippet}'], { stdio: 'ignore', detached: true })`,
      "writeFileSync('child.pid', String(child.pid))",
      'await new Promise(() => {})',
    ].join('\n')
    const script = writeScript(tree.root, 'snippet.json', { responses: [{ toolCalls: [{ name: 'run_code', arguments: { code } }] }] })
    const pidFile = tree.path('repo/child.pid')
    const steps = [{ expect: 'Ctrl-D exits' }, { send: 'start the snippet' }, { sleep: 0.1 }, { send: '\r' }, { file: pidFile, timeout: 30 }, { hangup: true }, { exit: 129, timeout: 30 }] as const
    const result = await runPty(['--dsh-home', home, 'chat', '--yes', '--cwd', tree.path('repo'), '--model', `scripted:${script}`], steps, { cwd: tree.root, timeoutMs: 90_000 })
    expect(result.exitCode).toBe(129)
    expect(await gone(sleepersOf([pidFile], [naps.snippet]))).toBe(true)
    expect(hostPidOf(['sleep', naps.snippet])).toBe(0)
    const [file = ''] = readdirSync(`${home}/sessions`).filter((name) => name.endsWith('.jsonl'))
    expect(lastTurnEnd(home, file.replace(/\.jsonl$/, ''))).toMatchObject({ data: { turn: 1, reason: 'cancelled' } })
  })
})
