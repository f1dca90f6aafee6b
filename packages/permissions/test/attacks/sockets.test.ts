// Red team, sockets (issue 19 item 4): services outside the sandbox that run what they are told —
// a tmux server (new-window runs a command outside), the ssh-agent (signs with the user's keys),
// the session bus — are unreachable from a sandboxed command, as root and as an unprivileged user,
// although dsh's environment names them and the command knows where their sockets are. Each
// service is first shown reachable from outside the sandbox, so the test proves the mask works.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { attackScript, attackWorkspace, runAttack, runnerDir, runners, toolResults, type Runner, type Workspace } from './attack-harness.ts'

let w: Workspace | undefined
const daemons: ChildProcess[] = []
afterEach(async () => {
  for (const daemon of daemons.splice(0)) daemon.kill('SIGKILL')
  await w?.tree.dispose()
  w = undefined
})

const has = (program: string): boolean => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0

/**
 * Starts a daemon as the runner and resolves once it says it is ready: its first line on stdout,
 * which both daemons print only after they listen on their socket. The socket file alone is not
 * enough — it exists from bind() on, and a client that connects before listen() is refused.
 */
async function startDaemon(runner: Runner, file: string, args: readonly string[], env: Record<string, string>): Promise<void> {
  const child = spawn(file, [...args], { stdio: ['ignore', 'pipe', 'ignore'], env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env }, ...runner.user })
  daemons.push(child)
  await new Promise<void>((resolve, reject) => {
    let said = ''
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (chunk: string) => {
      said += chunk
      if (said.includes('\n')) resolve()
    })
    child.on('exit', (code) => reject(new Error(`${file} exited with ${String(code)} before it was ready`)))
  })
}

function asRunner(runner: Runner, command: string, env: Record<string, string>): { status: number | null; output: string; errors: string } {
  const result = spawnSync('bash', ['-c', command], { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ...env }, encoding: 'utf8', ...runner.user })
  return { status: result.status, output: result.stdout, errors: result.stderr }
}

/** The windows of the private tmux server. */
const windows = (runner: Runner, env: Record<string, string>): string[] => asRunner(runner, "tmux -L dsh-attack list-windows -F '#{window_index}'", env).output.trim().split('\n')

describe.each(runners())('sockets, as $name', (runner) => {
  it.skipIf(!has('tmux'))('tmux new-window from a command does not reach the tmux server dsh runs in', async () => {
    w = await attackWorkspace(runner)
    const tmuxDir = runnerDir(w, w.tree.path('tmux'))
    const uid = runner.user?.uid ?? process.getuid?.() ?? 0
    const socket = join(tmuxDir, `tmux-${uid}`, 'dsh-attack')
    // SHELL: the window's command runs through it, and nobody's login shell refuses to run anything.
    const env = { TMUX_TMPDIR: tmuxDir, SHELL: '/bin/sh', TERM: 'xterm' }
    expect(asRunner(runner, 'tmux -L dsh-attack -f /dev/null new-session -d -s attack "sleep 600"', env).status).toBe(0)
    try {
      expect(windows(runner, env)).toEqual(['0'])
      const out = w.outside
      const script = attackScript(w, 'tmux.json', [
        `echo "TMUX=[$TMUX]"; tmux new-window 'touch ${out}/one'; echo "a=$?"; tmux -L dsh-attack new-window 'touch ${out}/two'; echo "b=$?"; tmux -S ${socket} new-window 'touch ${out}/three'; echo "c=$?"`,
      ])
      const result = await runAttack(w, script, { env: { ...env, TMUX: `${socket},1,0`, TMUX_PANE: '%0' } })
      expect(result.code).toBe(0)
      const [output = ''] = toolResults(w)
      expect(output).toContain('TMUX=[]')
      expect(output).not.toMatch(/[abc]=0/)
      expect(windows(runner, env)).toEqual(['0'])
      for (const name of ['one', 'two', 'three']) expect(existsSync(`${out}/${name}`)).toBe(false)
    } finally {
      asRunner(runner, 'tmux -L dsh-attack kill-server', env)
    }
  })

  it.skipIf(!has('ssh-agent') || !has('ssh-add'))('the ssh-agent does not answer a command, even at its known socket path', async () => {
    w = await attackWorkspace(runner)
    const socket = join(runnerDir(w, w.tree.path('agent')), 'agent.sock')
    // -D prints the variables to set once the agent listens.
    await startDaemon(runner, 'ssh-agent', ['-D', '-a', socket], {})
    // Reachable from outside: "The agent has no identities." with exit status 1.
    const outside = asRunner(runner, 'ssh-add -l', { SSH_AUTH_SOCK: socket })
    expect(outside.status, outside.errors).toBe(1)
    const script = attackScript(w, 'ssh.json', [`echo "SSH_AUTH_SOCK=[$SSH_AUTH_SOCK]"; SSH_AUTH_SOCK=${socket} ssh-add -l; echo "ssh=$?"`])
    const result = await runAttack(w, script, { env: { SSH_AUTH_SOCK: socket, SSH_AGENT_PID: '1' } })
    expect(result.code).toBe(0)
    const [output = ''] = toolResults(w)
    expect(output).toContain('SSH_AUTH_SOCK=[]')
    expect(output).toContain('ssh=2')
  })

  it.skipIf(!has('dbus-daemon') || !has('dbus-send'))('the session bus does not answer a command, even at its known socket path', async () => {
    w = await attackWorkspace(runner)
    const socket = join(runnerDir(w, w.tree.path('bus')), 'bus.sock')
    const address = `unix:path=${socket}`
    // --print-address writes the address once the bus listens on it.
    await startDaemon(runner, 'dbus-daemon', ['--session', `--address=${address}`, '--nofork', '--nopidfile', '--print-address=1'], {})
    const ask = `dbus-send --bus=${address} --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.ListNames`
    const outside = asRunner(runner, ask, {})
    expect(outside.status, outside.errors).toBe(0)
    const script = attackScript(w, 'bus.json', [`echo "DBUS=[$DBUS_SESSION_BUS_ADDRESS]"; ${ask}; echo "bus=$?"`])
    const result = await runAttack(w, script, { env: { DBUS_SESSION_BUS_ADDRESS: address } })
    expect(result.code).toBe(0)
    const [output = ''] = toolResults(w)
    expect(output).toContain('DBUS=[]')
    expect(output).not.toContain('bus=0')
    expect(output).toMatch(/bus=[1-9]/)
  })
})
