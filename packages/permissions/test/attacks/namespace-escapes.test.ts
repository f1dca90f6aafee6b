// Red team, namespaces (issue 19 items 1 and 2): a sandboxed command tries to reach dsh — signal
// it, send it SIGUSR1 to open Node's inspector, write the host's filesystem through
// /proc/$PPID/root and the other processes' roots — as root and as an unprivileged user, through
// the built binary with a scripted model. Every attempt fails; dsh answers as if nothing happened.
// `dsh sandbox check` passes here and fails on a sandbox weakened to share dsh's pid namespace.
import { existsSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { runDsh } from '../../../../apps/cli/test/run-dsh.ts'
import { attackScript, attackWorkspace, listeningPorts, runners, startRun, toolResults, type Workspace } from './attack-harness.ts'

let w: Workspace | undefined
afterEach(async () => {
  await w?.tree.dispose()
  w = undefined
})

/** Waits (inside the sandbox) until the test has written dsh's pid into `dsh.pid`. */
const dshPid = 'while [ ! -s dsh.pid ]; do sleep 0.05; done; P=$(cat dsh.pid)'

describe.each(runners())('namespace escapes, as $name', (runner) => {
  it('a command cannot signal dsh, nor open its inspector with SIGUSR1; it sees only its own processes', async () => {
    w = await attackWorkspace(runner)
    const script = attackScript(w, 'signal.json', [`${dshPid}; kill -USR1 $P; echo "usr1=$?"; kill -TERM $P; echo "term=$?"; kill -KILL $P; echo "kill=$?"; echo "processes: $(ls -d /proc/[0-9]* | wc -l)"`])
    const running = startRun(w, script)
    writeFileSync(`${w.repo}/dsh.pid`, String(running.pid))
    const result = await running.done
    expect(result).toMatchObject({ code: 0, stdout: 'done\n' })
    const [output = ''] = toolResults(w)
    expect(output).toContain('usr1=1')
    expect(output).toContain('term=1')
    expect(output).toContain('kill=1')
    expect(output).toContain('No such process')
    // bubblewrap's init, bash, and the command substitution's processes: nothing of the host.
    expect(Number(/processes: (\d+)/.exec(output)?.[1])).toBeLessThan(6)
    expect(result.stderr).not.toContain('Debugger listening')
  })

  it('a write through /proc/$PPID/root, /proc/1/root or any visible process root does not reach the host', async () => {
    w = await attackWorkspace(runner)
    const target = w.outside
    const script = attackScript(w, 'proc-root.json', [
      `echo pwned > "/proc/$PPID/root${target}/ppid.txt"; echo pwned > "/proc/1/root${target}/one.txt"; for p in /proc/[0-9]*; do echo pwned > "$p/root${target}/scan.txt"; done; echo tried`,
    ])
    const result = await startRun(w, script).done
    expect(result.code).toBe(0)
    expect(toolResults(w)[0]).toContain('tried')
    for (const name of ['ppid.txt', 'one.txt', 'scan.txt']) expect(existsSync(`${target}/${name}`)).toBe(false)
  })
})

describe('SIGUSR1 sent to dsh from outside', () => {
  it('opens no inspector port: the attempt fails on the unbindable inspector address', async () => {
    const [self] = runners()
    if (self === undefined) throw new Error('no runner')
    w = await attackWorkspace(self)
    const script = attackScript(w, 'wait.json', ['while [ ! -e go ]; do sleep 0.05; done; echo went'])
    const running = startRun(w, script)
    await running.stderrShows('session: ')
    process.kill(running.pid, 'SIGUSR1')
    await running.stderrShows('Starting inspector on 192.0.2.1:9229 failed')
    expect(listeningPorts(running.pid)).toEqual([])
    writeFileSync(`${w.repo}/go`, '')
    const result = await running.done
    expect(result).toMatchObject({ code: 0, stdout: 'done\n' })
    expect(result.stderr).not.toContain('Debugger listening')
  })
})

describe('dsh sandbox check against a weakened sandbox', () => {
  it('passes with the real sandbox and fails when commands share dsh\'s pid namespace', async () => {
    const [self] = runners()
    if (self === undefined) throw new Error('no runner')
    w = await attackWorkspace(self)
    const check = (env: Record<string, string> = {}) => runDsh(['--dsh-home', w?.dshHome ?? '', 'sandbox', 'check', '--cwd', w?.repo ?? ''], { cwd: w?.repo ?? '', env: { ...w?.env, ...env } })
    const real = await check()
    expect(real.code).toBe(0)
    expect(real.stdout).toMatch(/ok {3}signal to dsh \(pid \d+\): refused/)
    expect(real.stdout).toContain('ok   write through /proc/$PPID/root: refused')
    expect(real.stdout).toContain("ok   SIGUSR1 to dsh (Node's inspector): no inspector")
    const weak = await check({ DSH_TEST_WEAKEN_SANDBOX: 'share-pid' })
    expect(weak.code).toBe(1)
    expect(weak.stdout).toContain("warning: the sandbox is weakened for a test (DSH_TEST_WEAKEN_SANDBOX): commands share dsh's pid namespace")
    expect(weak.stdout).toMatch(/FAIL signal to dsh \(pid \d+\): delivered \(expected refused\)/)
    expect(weak.stdout).toMatch(/FAIL SIGUSR1 to dsh \(Node's inspector\): signalled \(expected no inspector\)/)
    if (process.getuid?.() === 0) expect(weak.stdout).toContain('FAIL write through /proc/$PPID/root: allowed (expected refused)')
  })
})
