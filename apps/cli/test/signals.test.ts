// No orphans, through the built binary with real signals: SIGTERM, SIGHUP and SIGINT end a running
// `dsh run` like a cancel (the tool's processes end, the turn is closed as cancelled, the session
// can be resumed at once) with exit 143 / 129 / 130; what a command leaves in the background
// (`cmd &`, nohup, setsid) ends when dsh exits; the chat ends the same way on SIGTERM. Commands run
// in their own pid namespace, so the sleepers are found from outside by their command lines.
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { chatBinary } from './chat-harness.ts'
import { dshBinary, runDsh, sessionIdOf, testEnv, writeScript, type DshResult } from './run-dsh.ts'
import { isAlive, StartedProcesses } from './test-processes.ts'

let tree: TempTree
const started = new StartedProcesses()
afterEach(async () => {
  // A failing test must not leave its sleepers behind.
  started.endAll()
  await tree?.dispose()
})

async function waitFor(predicate: () => boolean, ms = 15_000): Promise<boolean> {
  const deadline = Date.now() + ms
  while (!predicate()) {
    if (Date.now() > deadline) return false
    await new Promise((wake) => setTimeout(wake, 25))
  }
  return true
}

/** A tag unique to this test file's run: its sleepers are told apart from every other process by it. */
const tag = String(process.pid).padStart(7, '0')
const kinds = ['bg', 'nohup', 'setsid']
/** `sleep` arguments of each kind: the process's command line finds it from outside the sandbox. */
const seconds = (kind: string): string => `1000.${kinds.indexOf(kind) + 1}${tag}`

/** A bash command that leaves a background job, a nohup job and a setsid escape, writing a file when each started. */
const leaveBehind = [
  `sleep ${seconds('bg')} & echo $! > bg.pid`,
  `nohup sleep ${seconds('nohup')} >/dev/null 2>&1 & echo $! > nohup.pid`,
  `setsid sh -c 'echo $$ > setsid.pid; exec sleep ${seconds('setsid')}' >/dev/null 2>&1 &`,
].join('\n')

/** Host pid of the live `sleep SECONDS` (pids written inside the sandbox are its namespace's own). */
function hostPid(argument: string): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8') === `sleep\0${argument}\0`) return Number(name)
    } catch {
      // The process exited between the listing and the read.
    }
  }
  return undefined
}

/** The host pids of the three sleepers once all have started (their files written and their processes found). */
function pidsIn(dir: string): number[] | undefined {
  const files = kinds.map((kind) => `${dir}/${kind}.pid`)
  if (!files.every((file) => existsSync(file) && readFileSync(file, 'utf8').trim() !== '')) return undefined
  const pids = kinds.map((kind) => hostPid(seconds(kind)))
  if (pids.some((pid) => pid === undefined)) return undefined
  const found = pids.filter((pid): pid is number => pid !== undefined)
  started.add(...found)
  return found
}

/**
 * Spawns dsh and collects its output. The chat's stdin is a pipe the test writes to; `dsh run`
 * gets /dev/null (beside a prompt, a pipe nobody writes to would cost its stdin wait and a line).
 */
function start(binary: string, args: readonly string[], cwd: string) {
  const child = spawn(binary, [...args], { cwd, env: testEnv(cwd, { NO_COLOR: '1' }), stdio: [args.includes('chat') ? 'pipe' : 'ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const done = new Promise<DshResult>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
  return { child, done }
}

function lastTurnEnd(home: string, id: string): unknown {
  const lines = readFileSync(`${home}/sessions/${id}.jsonl`, 'utf8').trim().split('\n')
  return lines.map((line): unknown => JSON.parse(line)).findLast((event) => typeof event === 'object' && event !== null && 'type' in event && event.type === 'turn/end')
}

describe('dsh run ends cleanly on a signal', () => {
  for (const [signal, code] of [['SIGTERM', 143], ['SIGHUP', 129], ['SIGINT', 130]] as const) {
    it(`${signal}: the running tool and what it started end, the turn is closed as cancelled, exit ${code}`, async () => {
      tree = await tempTree({ 'repo/': null })
      const home = tree.path('home')
      const script = writeScript(tree.root, 'hang.json', { responses: [{ toolCalls: [{ name: 'bash', arguments: { command: `${leaveBehind}\nsleep 1000` } }] }] })
      const run = start(dshBinary, ['--dsh-home', home, 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, 'start the sleepers'], tree.root)
      expect(await waitFor(() => pidsIn(tree.path('repo')) !== undefined)).toBe(true)
      const pids = pidsIn(tree.path('repo')) ?? []
      run.child.kill(signal)
      const result = await run.done
      const id = sessionIdOf(result.stderr)
      expect(result).toEqual({ code, stdout: '', stderr: `session: ${id}\ndsh: stopped by ${signal}: the turn was closed as cancelled; continue with --resume ${id}\n` })
      expect(pids.filter(isAlive)).toEqual([])
      expect(lastTurnEnd(home, id)).toMatchObject({ data: { turn: 1, reason: 'cancelled' } })
      const next = writeScript(tree.root, 'next.json', { responses: [{ text: 'resumed' }] })
      expect(await runDsh(['--dsh-home', home, 'run', '--model', `scripted:${next}`, '--resume', id, 'go on'], { cwd: tree.root })).toMatchObject({ code: 0, stdout: 'resumed\n' })
    })
  }
})

describe('background processes', () => {
  it('live through the call and end when dsh run exits', async () => {
    tree = await tempTree({ 'repo/': null })
    const script = writeScript(tree.root, 'bg.json', {
      responses: [{ toolCalls: [{ name: 'bash', arguments: { command: `${leaveBehind}\nwhile [ ! -s setsid.pid ]; do sleep 0.02; done` } }] }, { toolCalls: [{ name: 'bash', arguments: { command: 'while [ ! -e checked ]; do sleep 0.02; done; echo checked' } }] }, { text: 'done' }],
    })
    const log = tree.path('requests.jsonl')
    const run = start(dshBinary, ['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--request-log', log, 'go'], tree.root)
    // The second model call is made once the first command has returned.
    expect(await waitFor(() => existsSync(log) && readFileSync(log, 'utf8').trim().split('\n').length >= 2)).toBe(true)
    const pids = pidsIn(tree.path('repo')) ?? [0]
    expect(pids.filter(isAlive)).toHaveLength(3)
    writeFileSync(tree.path('repo/checked'), '')
    const result = await run.done
    expect(result).toMatchObject({ code: 0, stdout: 'done\n' })
    expect(await waitFor(() => !pids.some(isAlive))).toBe(true)
  })
})

describe('dsh chat ends cleanly on a signal', () => {
  it('SIGTERM during a turn ends its tool and what it started, then exits 143', async () => {
    tree = await tempTree({ 'repo/': null })
    const script = writeScript(tree.root, 'chat.json', { responses: [{ toolCalls: [{ name: 'bash', arguments: { command: `${leaveBehind}\nsleep 1000` } }] }] })
    const chat = start(chatBinary(), ['--dsh-home', tree.path('home'), 'chat', '--yes', '--cwd', tree.path('repo'), '--model', `scripted:${script}`], tree.root)
    chat.child.stdin?.write('start the sleepers\n')
    expect(await waitFor(() => pidsIn(tree.path('repo')) !== undefined)).toBe(true)
    const pids = pidsIn(tree.path('repo')) ?? []
    chat.child.kill('SIGTERM')
    const result = await chat.done
    expect(result.code).toBe(143)
    expect(pids.filter(isAlive)).toEqual([])
    expect(lastTurnEnd(tree.path('home'), sessionIdOf(result.stderr))).toMatchObject({ data: { reason: 'cancelled' } })
  })
})
