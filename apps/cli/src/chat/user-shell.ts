/**
 * The runner of the chat's `!command` lines: the person's own command, run as their terminal would
 * run it — `bash -c` (`/bin/sh` where there is no bash) in the session's directory, with their
 * environment, in a process group of its own that Ctrl-C (the line's signal) ends with SIGINT and,
 * 2 s later, SIGKILL. stdout and stderr are kept in arrival order up to 30,000 characters, the
 * bash tool's cap, since the model gets them too. It is not the
 * agent's bash tool: no permission question, no sandbox, no hooks — the person typed it.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { killProcessesNow } from '@dsh/tools'
import type { ShellOutcome, ShellRunner } from '@dsh/tui'

/** Most output kept, in characters (the bash tool's `BASH_MAX_OUTPUT_CHARS`: the model reads it as it reads a call's output). */
export const MAX_SHELL_OUTPUT = 30_000

const GRACE_MS = 2000

/** Ctrl-C as a terminal sends it: SIGINT to the command's group. */
function interrupt(pid: number): void {
  try {
    process.kill(-pid, 'SIGINT')
  } catch {
    // ESRCH: the group has ended already; EPERM: a member changed user. Nothing more to send
    // here (this runs in an abort listener, where a throw would end the chat); the SIGKILL follows.
  }
}

/** The runner with the process environment `env`. */
export function userShell(env: Readonly<Record<string, string | undefined>>): ShellRunner {
  const shell = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh'
  return (command, { cwd, signal }) =>
    new Promise<ShellOutcome>((resolve) => {
      let output = ''
      let truncated = false
      const child = spawn(shell, ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
      const take = (text: string): void => {
        const room = MAX_SHELL_OUTPUT - output.length
        if (text.length > room) truncated = true
        if (room > 0) output += text.slice(0, room)
      }
      // Decoded per stream, so a character split between two reads stays whole.
      child.stdout.setEncoding('utf8').on('data', take)
      child.stderr.setEncoding('utf8').on('data', take)
      let killer: ReturnType<typeof setTimeout> | undefined
      const stop = (): void => {
        const pid = child.pid
        if (pid === undefined) return
        interrupt(pid)
        // What is left after the grace (children that ignore SIGINT) ends as tool processes do.
        killer = setTimeout(() => killProcessesNow({ groups: [pid], marker: () => false }), GRACE_MS)
      }
      signal.addEventListener('abort', stop, { once: true })
      const finish = (exitCode: number | null, ended: NodeJS.Signals | null): void => {
        clearTimeout(killer)
        signal.removeEventListener('abort', stop)
        resolve({ output, exitCode, truncated, ...(ended === null ? {} : { signal: ended }) })
      }
      child.on('error', (error) => {
        // The shell could not start (a cwd removed meanwhile): said as output, like a shell's own error.
        output += `${error.message}\n`
        finish(127, null)
      })
      child.on('close', (code, ended) => finish(code, ended))
    })
}
