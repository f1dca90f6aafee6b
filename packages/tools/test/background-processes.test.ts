// What bash commands leave running: `cmd &`, `nohup`, `setsid` escapes and a child that cleared its
// environment, with and without a ToolProcesses tracker; real processes, checked through /proc.
import { existsSync } from 'node:fs'
import { driveClock, realWaitFor, tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { bashTool, createBashTool, ToolProcesses } from '../src/index.ts'
import { call, eventuallyGone, isAlive, runContext, seen } from './helpers.ts'

let tree: TempTree
const started: number[] = []
beforeEach(async () => {
  tree = await tempTree({})
})
afterEach(async () => {
  vi.useRealTimers()
  // A failing test must not leave its sleepers behind.
  for (const pid of started.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL')
  await tree.dispose()
})

/**
 * Starts one process of each kind and prints `kind:pid` lines: a background job, a nohup job, a
 * setsid escape (new session and group), a double fork under setsid whose parent exits, and a
 * background job that cleared its environment (it keeps no marker, only the group).
 */
const leaveBehind = [
  'sleep 1000 & echo "bg:$!"',
  'nohup sleep 1000 >/dev/null 2>&1 & echo "nohup:$!"',
  `setsid sh -c 'echo $$ > setsid.pid; exec sleep 1000' >/dev/null 2>&1 &`,
  `setsid sh -c 'sleep 1000 >/dev/null 2>&1 & echo $! > daemon.pid' >/dev/null 2>&1 &`,
  'env -i /bin/sleep 1000 & echo "env-cleared:$!"',
  'for f in setsid.pid daemon.pid; do while [ ! -s $f ]; do sleep 0.02; done; echo "${f%.pid}:$(cat $f)"; done',
].join('\n')

function pidsOf(content: string): Record<string, number> {
  const pids: Record<string, number> = Object.fromEntries([...content.matchAll(/^([a-z-]+):(\d+)$/gm)].map((match) => [match[1] ?? '', Number(match[2])]))
  started.push(...Object.values(pids))
  return pids
}

async function allGone(pids: Record<string, number>): Promise<Record<string, boolean>> {
  const entries = await Promise.all(Object.entries(pids).map(async ([kind, pid]) => [kind, await eventuallyGone(pid)] as const))
  return Object.fromEntries(entries)
}

const everyKind = { bg: true, nohup: true, setsid: true, daemon: true, 'env-cleared': true }

describe('without a tracker', () => {
  it('ends everything the command left running when the call finishes', async () => {
    const output = seen(await call(bashTool, { command: leaveBehind }, runContext({ cwd: tree.root })))
    expect(output.content).toMatch(/\[Exit code: 0\]$/)
    const pids = pidsOf(output.content)
    expect(Object.keys(pids).toSorted()).toEqual(Object.keys(everyKind).toSorted())
    expect(await allGone(pids)).toEqual(everyKind)
  })

  it('ends setsid escapes with the group on timeout', async () => {
    // The time limit runs from the spawn; a loaded machine may need longer to start everything. So
    // the clock is faked and the limit elapses only once the command wrote `started`.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const pending = call(bashTool, { command: `${leaveBehind}\ntouch started\nsleep 1000`, timeout_ms: 1500 }, runContext({ cwd: tree.root }))
    const ready = await realWaitFor(() => existsSync(tree.path('started')))
    const output = seen(await driveClock(pending, (ms) => vi.advanceTimersByTime(ms)))
    vi.useRealTimers()
    expect(ready).toBe(true)
    expect(output.isError).toBe(true)
    expect(await allGone(pidsOf(output.content))).toEqual(everyKind)
  })

  it('says so in the description', () => {
    expect(bashTool.description).toContain('Processes it starts in the background (cmd &) are stopped when it returns.')
  })
})

describe('with a tracker', () => {
  it('keeps background processes running after the call and ends them all at endAll', async () => {
    const processes = new ToolProcesses({ graceMs: 500 })
    const tool = createBashTool({ processes })
    const output = seen(await call(tool, { command: leaveBehind }, runContext({ cwd: tree.root })))
    const pids = pidsOf(output.content)
    expect(Object.values(pids).map(isAlive)).toEqual([true, true, true, true, true])
    await processes.endAll()
    expect(await allGone(pids)).toEqual(everyKind)
  })

  it('ends processes that ignore SIGTERM with SIGKILL after the grace period', async () => {
    const processes = new ToolProcesses({ graceMs: 200 })
    const command = `setsid sh -c 'trap "" TERM; echo $$ > stubborn.pid; while :; do sleep 1; done' >/dev/null 2>&1 &\nwhile [ ! -s stubborn.pid ]; do sleep 0.02; done; echo "stubborn:$(cat stubborn.pid)"`
    const pids = pidsOf(seen(await call(createBashTool({ processes }), { command }, runContext({ cwd: tree.root }))).content)
    await processes.endAll()
    expect(await allGone(pids)).toEqual({ stubborn: true })
  })

  it('killAllNow ends them synchronously', async () => {
    const processes = new ToolProcesses()
    const pids = pidsOf(seen(await call(createBashTool({ processes }), { command: leaveBehind }, runContext({ cwd: tree.root }))).content)
    processes.killAllNow()
    expect(await allGone(pids)).toEqual(everyKind)
  })

  it('leaves processes of other trackers and other processes alone', async () => {
    const mine = new ToolProcesses({ graceMs: 200 })
    const theirs = new ToolProcesses({ graceMs: 200 })
    const keep = pidsOf(seen(await call(createBashTool({ processes: theirs }), { command: leaveBehind }, runContext({ cwd: tree.root }))).content)
    await mine.endAll()
    expect(Object.values(keep).map(isAlive)).toEqual([true, true, true, true, true])
    await theirs.endAll()
    expect(await allGone(keep)).toEqual(everyKind)
  })

  it('says so in the description, and the timeout hint suggests the background', async () => {
    const tool = createBashTool({ processes: new ToolProcesses() })
    expect(tool.description).toContain('Processes it starts in the background (cmd &) keep running after it returns, until the session ends')
    expect(seen(await call(tool, { command: 'sleep 5', timeout_ms: 100 }, runContext({ cwd: tree.root }))).content).toContain(
      'or run it in the background with output redirected to a file and check the file later.]',
    )
  })
})
