// run_code limits: the time limit, cancellation killing the process group, and the output cap.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import type { ToolDefinition } from '@dsh/contracts'
import { bashTool, ToolProcesses } from '@dsh/tools'
import { driveClock } from '@dsh/testkit'
import { alive, erased, fixture, waitFor, type Fixture } from './helpers.ts'

let f: Fixture | undefined
afterEach(async () => {
  await f?.dispose()
  f = undefined
})

/** A `sleep` argument no other process uses, so the processes running it can be found. */
const uniqueSleep = `60.${process.pid}`

/** Pids of live processes whose command line contains `text`, read from /proc (none: an empty list). */
function runningWith(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(text) && alive(pid)
      } catch {
        // The process exited between the listing and the read: it is not running.
        return false
      }
    })
}

/** Runs a snippet that starts `sleep 60` and then waits forever; resolves once both pids are known. */
async function startSleeper(host: Fixture, signal: AbortSignal, options: { readonly detached: boolean }) {
  const code = [
    "const { spawn } = await import('node:child_process')",
    "const { writeFileSync } = await import('node:fs')",
    `const sleeper = spawn('sleep', ['60'], { stdio: 'ignore', detached: ${options.detached} })`,
    "writeFileSync('pids', process.pid + ' ' + sleeper.pid)",
    'await new Promise(() => {})',
  ].join('\n')
  const pending = host.call('run_code', { code }, signal)
  const pidFile = `${host.cwd}/pids`
  expect(await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').includes(' '))).toBe(true)
  const [snippetPid = 0, sleeperPid = 0] = readFileSync(pidFile, 'utf8').split(' ').map(Number)
  return { pending, snippetPid, sleeperPid }
}

// The time limit runs from the spawn of the snippet; a loaded machine can take longer than the
// limit just to start Node. So the time-limit tests fake the clock, wait (in real time) until the
// snippet reached the point each one checks, and only then let the limit elapse.
const fakeClock = (): void => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
}
const advance = (ms: number): void => {
  vi.advanceTimersByTime(ms)
}

describe('run_code limits', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('stops a snippet that runs past timeout_ms and keeps the output it printed', async () => {
    f = await fixture()
    fakeClock()
    const code = "console.log('before')\nconst { writeFileSync } = await import('node:fs')\nwriteFileSync('printed', '')\nawait new Promise(() => {})"
    const pending = f.call('run_code', { code, timeout_ms: 1500 })
    expect(await waitFor(() => existsSync(`${f?.cwd}/printed`))).toBe(true)
    const outcome = await driveClock(pending, advance)
    expect(outcome).toMatchObject({ isError: true, status: 'failed' })
    expect(outcome.content).toBe(
      'The snippet ran longer than 1500 ms and was stopped (its process group was killed). Do less per run_code call, or pass a larger timeout_ms (at most 600000).\n\nOutput:\nbefore\n\nNested tool calls: none',
    )
  })

  it('the time limit cancels a nested call that honours its signal, and the footer says so', async () => {
    f = await fixture()
    let sawAbort = false
    let called = false
    const wait: ToolDefinition<Record<string, never>> = {
      name: 'wait',
      description: 'Waits until cancelled.',
      parameters: z.object({}),
      execute: (_args, run) =>
        new Promise((resolve) => {
          called = true
          run.signal.addEventListener('abort', () => {
            sawAbort = true
            resolve({ isError: true, content: 'Stopped waiting.' })
          })
        }),
    }
    f.host.tools.register(erased(wait))
    fakeClock()
    const pending = f.call('run_code', { code: 'await tools.wait({})', timeout_ms: 500 })
    expect(await waitFor(() => called)).toBe(true)
    const outcome = await driveClock(pending, advance)
    expect(sawAbort).toBe(true)
    expect(outcome.content).toBe(
      'The snippet ran longer than 500 ms and was stopped (its process group was killed). Do less per run_code call, or pass a larger timeout_ms (at most 600000).\n\nNested tool calls: wait ⊘ (⊘ = cancelled when the snippet ended)',
    )
  })

  it('the time limit kills a nested bash: its command never finishes', async () => {
    f = await fixture()
    f.host.tools.register(erased(bashTool))
    fakeClock()
    const pending = f.call('run_code', { code: `await tools.bash({ command: 'echo $$ > bash.pid; sleep ${uniqueSleep}; touch late' })`, timeout_ms: 500 })
    expect(await waitFor(() => existsSync(`${f?.cwd}/bash.pid`))).toBe(true)
    const outcome = await driveClock(pending, advance)
    expect(outcome.content).toMatch(/^The snippet ran longer than 500 ms and was stopped .*\n\nNested tool calls: bash ⊘ \(⊘ = cancelled when the snippet ended\)$/s)
    // Nothing that could still touch `late` is left running.
    expect(alive(Number(readFileSync(`${f.cwd}/bash.pid`, 'utf8')))).toBe(false)
    expect(await waitFor(() => runningWith(uniqueSleep).length === 0)).toBe(true)
    expect(existsSync(`${f.cwd}/late`)).toBe(false)
  })

  it('a nested bash the snippet did not await is killed when the snippet exits', async () => {
    f = await fixture()
    f.host.tools.register(erased(bashTool))
    const outcome = await f.call('run_code', { code: `void tools.bash({ command: 'sleep ${uniqueSleep}; touch late' }).catch(() => undefined)\nreturn 'left early'` })
    expect(outcome).toMatchObject({ isError: false, content: 'Returned:\nleft early\n\nNested tool calls: bash ⊘ (⊘ = cancelled when the snippet ended)' })
    // Nothing that could still touch `late` is left running.
    expect(await waitFor(() => runningWith(uniqueSleep).length === 0)).toBe(true)
    expect(existsSync(`${f.cwd}/late`)).toBe(false)
  })

  it('a nested call that ignores its signal is abandoned after the grace period and listed as still running', async () => {
    f = await fixture()
    let called = false
    const hang: ToolDefinition<Record<string, never>> = {
      name: 'hang',
      description: 'Never finishes.',
      parameters: z.object({}),
      execute: () => {
        called = true
        return new Promise(() => undefined)
      },
    }
    f.host.tools.register(erased(hang))
    fakeClock()
    const pending = f.call('run_code', { code: 'await tools.hang({})', timeout_ms: 500 })
    expect(await waitFor(() => called)).toBe(true)
    const outcome = await driveClock(pending, advance)
    expect(outcome.content).toBe(
      'The snippet ran longer than 500 ms and was stopped (its process group was killed). Do less per run_code call, or pass a larger timeout_ms (at most 600000).\n\nNested tool calls: hang … (… = still running when the snippet ended)',
    )
  })

  it('rejects timeout_ms above the maximum before running anything', async () => {
    f = await fixture()
    const outcome = await f.call('run_code', { code: 'return 1', timeout_ms: 600_001 })
    expect(outcome.status).toBe('invalid-arguments')
    expect(outcome.content).toMatch(/^Invalid arguments for run_code: timeout_ms: /)
  })

  it('cancellation kills the snippet process and the processes it started', async () => {
    f = await fixture()
    const controller = new AbortController()
    const { pending, snippetPid, sleeperPid } = await startSleeper(f, controller.signal, { detached: false })
    expect(alive(snippetPid)).toBe(true)
    controller.abort()
    const outcome = await pending
    expect(outcome).toMatchObject({ isError: true, status: 'cancelled' })
    expect(alive(snippetPid)).toBe(false)
    expect(await waitFor(() => !alive(sleeperPid))).toBe(true)
  })

  it("with the host's tracker, its synchronous killAllNow (dsh's exit hook) ends what a still-running snippet started", async () => {
    const processes = new ToolProcesses()
    f = await fixture({}, { processes })
    const controller = new AbortController()
    const { pending, snippetPid, sleeperPid } = await startSleeper(f, controller.signal, { detached: true })
    processes.killAllNow()
    expect(await waitFor(() => !alive(sleeperPid) && !alive(snippetPid))).toBe(true)
    controller.abort()
    await pending
  })

  it('a detached child and a setsid escape the snippet left running end with it', async () => {
    f = await fixture()
    const code = [
      "const { spawn, execSync } = await import('node:child_process')",
      "const detached = spawn('sleep', ['60'], { stdio: 'ignore', detached: true })",
      'detached.unref()',
      "execSync(\"setsid sh -c 'echo $$ > setsid.pid; exec sleep 60' >/dev/null 2>&1 &\")",
      "const { existsSync, readFileSync } = await import('node:fs')",
      "while (!existsSync('setsid.pid') || readFileSync('setsid.pid', 'utf8') === '') await new Promise((r) => setTimeout(r, 20))",
      "return detached.pid + ' ' + readFileSync('setsid.pid', 'utf8').trim()",
    ].join('\n')
    const outcome = await f.call('run_code', { code })
    expect(outcome).toMatchObject({ isError: false })
    const [detachedPid = 0, setsidPid = 0] = /^Returned:\n(\d+) (\d+)/.exec(outcome.content)?.slice(1).map(Number) ?? []
    expect(detachedPid).toBeGreaterThan(0)
    expect(await waitFor(() => !alive(detachedPid) && !alive(setsidPid))).toBe(true)
  })

  it('the time limit is not held open by a grandchild that left the group without the marker and holds the IPC channel', async () => {
    f = await fixture()
    const code = [
      "const { spawn } = await import('node:child_process')",
      "const { writeFileSync } = await import('node:fs')",
      "const holder = spawn('sleep', ['120'], { stdio: ['ignore', 'ignore', 'ignore', Number(process.env.NODE_CHANNEL_FD)], detached: true, env: { PATH: process.env.PATH } })",
      "writeFileSync('holder.pid', String(holder.pid))",
      'await new Promise(() => {})',
    ].join('\n')
    try {
      const outcome = await f.call('run_code', { code, timeout_ms: 5000 })
      expect(outcome.content).toMatch(/^The snippet ran longer than 5000 ms and was stopped/)
    } finally {
      // Unsandboxed, the holder outlives the run (it carries no marker); a loaded machine may not have started it at all.
      const pidFile = `${f.cwd}/holder.pid`
      const holder = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0
      if (holder > 0 && alive(holder)) process.kill(holder, 'SIGKILL')
    }
  })

  it('caps output to head and tail with a marker, and caps a huge return value', async () => {
    f = await fixture({}, { maxOutputChars: 1000 })
    const code = "for (let i = 0; i < 2000; i++) console.log(String(i).padStart(5, '0') + 'y'.repeat(45))"
    const outcome = await f.call('run_code', { code })
    expect(outcome.isError).toBe(false)
    expect(outcome.content.startsWith('Output:\n00000yyy')).toBe(true)
    expect(outcome.content).toMatch(/\n\[… \d+ characters omitted …\]\n/)
    expect(outcome.content).toContain('01999yyy')
    expect(outcome.content.length).toBeLessThan(1200)

    const huge = await f.call('run_code', { code: "return 'a'.repeat(50000) + 'THE END'" })
    expect(huge.content).toMatch(/^Returned:\naaa/)
    expect(huge.content).toContain('THE END\n\nNested tool calls: none')
    expect(huge.content.length).toBeLessThan(1200)
  })
})
