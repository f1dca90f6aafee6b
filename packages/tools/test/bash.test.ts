// bash tool: output and exit codes, process-group kill on timeout and abort, output cap.
import { existsSync } from 'node:fs'
import { driveClock, realWaitFor, tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { bashTool } from '../src/index.ts'
import { runInProcessGroup } from '../src/process-group.ts'
import { call, eventuallyGone, runContext, seen } from './helpers.ts'

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({ 'f.txt': 'content\n' })
})
afterEach(async () => {
  await tree.dispose()
})

const bash = (args: unknown, signal?: AbortSignal) =>
  call(bashTool, args, runContext(signal === undefined ? { cwd: tree.root } : { cwd: tree.root, signal }))

const backgroundPid = (content: string) => Number(/bg:(\d+)/.exec(content)?.[1])

describe('results', () => {
  it('combines stdout and stderr in order and shows the exit code', async () => {
    expect(seen(await bash({ command: 'echo one; echo two >&2; echo three' }))).toEqual({
      isError: false,
      content: 'one\ntwo\nthree\n\n[Exit code: 0]',
    })
  })

  it('reports a non-zero exit as a normal result', async () => {
    expect(seen(await bash({ command: 'cat f.txt; exit 3' }))).toEqual({
      isError: false,
      content: 'content\n\n[Exit code: 3]',
    })
  })

  it('runs in the cwd with stdin closed', async () => {
    expect(seen(await bash({ command: 'pwd; cat; echo done' })).content).toBe(`${tree.root}\ndone\n\n[Exit code: 0]`)
    expect(seen(await bash({ command: 'true' })).content).toBe('(no output)\n\n[Exit code: 0]')
  })

  it('shows syntax errors in the output', async () => {
    const output = seen(await bash({ command: 'if then' }))
    expect(output.isError).toBe(false)
    expect(output.content).toMatch(/syntax error[\s\S]*\[Exit code: 2\]$/)
  })

  it('caps long output keeping head and tail', async () => {
    const output = seen(await bash({ command: 'seq 1 100000' }))
    expect(output.content.length).toBeLessThan(30_200)
    expect(output.content.startsWith('1\n2\n3\n')).toBe(true)
    expect(output.content).toMatch(/\n\n\[\.\.\. \d+ characters of output omitted \.\.\.\]\n\n/)
    expect(output.content.endsWith('99999\n100000\n\n[Exit code: 0]')).toBe(true)
  })
})

// A time limit runs from the spawn of the command, and a loaded machine can take longer than the
// limit to start bash. So the time-limit tests fake the clock, wait (in real time) until the
// command wrote `started`, and only then let the limit elapse; the real clock is back before
// checking that the processes are gone.
const fakeClock = (): void => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
}
const advance = (ms: number): void => {
  vi.advanceTimersByTime(ms)
}
const commandStarted = async (): Promise<void> => {
  expect(await realWaitFor(() => existsSync(tree.path('started')))).toBe(true)
}

describe('stopping the process group', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('kills the whole group on timeout', async () => {
    fakeClock()
    const pending = bash({ command: 'sleep 30 & echo "bg:$!"; touch started; sleep 30; wait', timeout_ms: 300 })
    await commandStarted()
    const output = seen(await driveClock(pending, advance))
    vi.useRealTimers()
    expect(output.isError).toBe(true)
    const pid = backgroundPid(output.content)
    expect(output.content).toBe(
      `bg:${pid}\n\n[Timed out after 300 ms; the command and every process it started were killed. ` +
        'If it needs longer, pass a larger timeout_ms (max 600000).]',
    )
    expect(await eventuallyGone(pid)).toBe(true)
  })

  it('kills the whole group on abort', async () => {
    const controller = new AbortController()
    const pending = bash({ command: 'sleep 30 & echo "bg:$!"; touch started; sleep 30; wait' }, controller.signal)
    await commandStarted()
    controller.abort()
    const output = seen(await pending)
    const pid = backgroundPid(output.content)
    expect(output).toEqual({
      isError: true,
      content: `bg:${pid}\n\n[Cancelled: the command and every process it started were killed before it finished.]`,
    })
    expect(await eventuallyGone(pid)).toBe(true)
  })

  it('does not start when already aborted', async () => {
    expect(seen(await bash({ command: 'echo never' }, AbortSignal.abort()))).toEqual({
      isError: true,
      content: '(no output)\n\n[Cancelled: the command and every process it started were killed before it finished.]',
    })
  })

  it('follows SIGTERM with SIGKILL for a group that ignores it', async () => {
    fakeClock()
    // The group ignores SIGTERM and sleeps longer than the test may run: only SIGKILL ends it in time.
    const pending = runInProcessGroup("trap '' TERM; sleep 600 & echo \"bg:$!\"; touch started; sleep 600", {
      cwd: tree.root,
      timeoutMs: 200,
      signal: new AbortController().signal,
      maxOutputChars: 1000,
      killGraceMs: 300,
      marker: 'bash-test-sigkill',
      afterExit: () => Promise.resolve(),
    })
    await commandStarted()
    const result = await driveClock(pending, advance)
    vi.useRealTimers()
    expect(result.ended).toBe('timeout')
    expect(await eventuallyGone(backgroundPid(result.output))).toBe(true)
  })

  it('returns after the shell exits even if a background process keeps the pipe open', async () => {
    // The background sleep outlives the test's time: waiting for the pipe to close would time out.
    const output = seen(await bash({ command: 'sleep 600 & echo "bg:$!"' }))
    expect(output.content).toMatch(/^bg:\d+\n\n\[Exit code: 0\]$/)
    expect(await eventuallyGone(backgroundPid(output.content))).toBe(true)
  })
})
