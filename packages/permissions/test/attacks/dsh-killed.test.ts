// Red team, a dsh killed with SIGKILL (issue 19 item 1: "background processes … end with the
// session"): the model leaves processes running in the background — plain, under setsid and nohup
// with a cleared environment — and a foreground command is still running when dsh is killed, so
// nothing of dsh's own clean-up runs. As root and as an unprivileged user, every one of them, and
// every bubblewrap process of those sandboxes, is gone afterwards (polled in /proc, no sleeps).
import { randomInt } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { attackScript, attackWorkspace, processesRunning, runners, startRun, type Workspace } from './attack-harness.ts'

let w: Workspace | undefined
afterEach(async () => {
  await w?.tree.dispose()
  w = undefined
})

/** Live bubblewrap processes whose arguments name `dir` (the sandboxes of this test's dsh). */
function sandboxesIn(dir: string): number[] {
  return readdirSync('/proc').flatMap((name) => {
    if (!/^\d+$/.test(name)) return []
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0')
      return argv[0]?.endsWith('bwrap') === true && argv.includes(dir) && !readFileSync(`/proc/${name}/stat`, 'utf8').includes(') Z ') ? [Number(name)] : []
    } catch {
      // The process exited between the listing and the read.
      return []
    }
  })
}

describe.each(runners())('a dsh killed with SIGKILL, as $name', (runner) => {
  it('leaves no sandboxed process and no sandbox running', async () => {
    w = await attackWorkspace(runner)
    // Durations no other process on the machine has (another suite may run this same test meanwhile).
    const tag = randomInt(100_000, 1_000_000)
    const [a, b, c, d] = [`811.${tag}1`, `811.${tag}2`, `811.${tag}3`, `811.${tag}4`]
    const script = attackScript(w, 'killed.json', [`sleep ${a} > /dev/null 2>&1 & setsid sleep ${b} > /dev/null 2>&1 & nohup env -i /bin/sleep ${c} > /dev/null 2>&1 & echo started`, `sleep ${d}`])
    const running = startRun(w, script)
    const sleeps = [['sleep', a], ['sleep', b], ['/bin/sleep', c], ['sleep', d]]
    await expect.poll(() => sleeps.map((argv) => processesRunning(argv).length), { timeout: 30_000, interval: 50 }).toEqual([1, 1, 1, 1])
    expect(sandboxesIn(w.repo).length).toBeGreaterThan(0)
    process.kill(running.pid, 'SIGKILL')
    const result = await running.done
    expect(result.code).toBe(null)
    await expect.poll(() => sleeps.flatMap((argv) => processesRunning(argv)), { timeout: 30_000, interval: 50 }).toEqual([])
    await expect.poll(() => sandboxesIn(w?.repo ?? ''), { timeout: 30_000, interval: 50 }).toEqual([])
  })
})
