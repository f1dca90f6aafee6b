// The built dsh in a real tmux window of a fixed size, as a person at a terminal sees it: a private
// tmux server (its own -L socket and an empty config), keys sent with send-keys, the screen read
// with capture-pane. Waiting is for what appears on the screen, never for a fixed time.
import { randomBytes } from 'node:crypto'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { isProcessAlive, realWaitFor } from '@dsh/testkit'
import { chatBinary } from './chat-harness.ts'
import { testEnv } from './run-dsh.ts'

const run = promisify(execFile)

/** A running tmux window. */
export interface TmuxSession {
  /** The visible screen, one string per row (trailing spaces removed). */
  screen(): Promise<string[]>
  /** Waits until `pattern` matches the screen (joined by newlines); rejects with the screen after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string[]>
  /** tmux key names (`Enter`, `Escape`, `PageDown`, `C-c`) or, with `literal`, text as typed. */
  keys(keys: readonly string[], options?: { readonly literal?: boolean }): Promise<void>
  /** Ends the tmux server and everything in it. */
  kill(): Promise<void>
}

const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`

/** Starts `dsh ARGS…` in a `cols`×`rows` tmux window in `cwd`. */
export async function startTmux(args: readonly string[], options: { readonly cwd: string; readonly cols?: number; readonly rows?: number; readonly env?: Record<string, string> }): Promise<TmuxSession> {
  const socket = `dsh-test-${randomBytes(6).toString('hex')}`
  const env = testEnv(options.cwd, { TERM: 'xterm-256color', ...options.env })
  const tmux = (...words: string[]) => run('tmux', ['-L', socket, '-f', '/dev/null', ...words], { cwd: options.cwd, env })
  const command = [chatBinary(), ...args].map(quote).join(' ')
  await tmux('new-session', '-d', '-s', 't', '-x', String(options.cols ?? 120), '-y', String(options.rows ?? 40), `exec ${command}`)
  const screen = async (): Promise<string[]> => (await tmux('capture-pane', '-p', '-t', 't')).stdout.split('\n').map((line) => line.trimEnd())
  return {
    screen,
    async waitFor(pattern, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs
      for (;;) {
        const lines = await screen()
        if (pattern.test(lines.join('\n'))) return lines
        if (Date.now() > until) throw new Error(`${String(pattern)} never appeared; the screen:\n${lines.join('\n')}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    },
    async keys(keys, keyOptions = {}) {
      await tmux('send-keys', '-t', 't', ...(keyOptions.literal === true ? ['-l'] : []), ...keys)
    },
    async kill() {
      // The pane runs `exec dsh`, so its pid is dsh's; the server may be gone already (dsh exited
      // and took the last window with it), and then there is nothing to wait for.
      const pane = Number((await tmux('display-message', '-p', '-t', 't', '#{pane_pid}').catch(() => ({ stdout: '' }))).stdout.trim())
      await tmux('kill-server').catch(() => undefined)
      // dsh ends on the hangup, releasing its session lock and writing its last lines: the test's
      // temporary tree is removed only after that (it raced with the lock directory's removal).
      if (Number.isInteger(pane) && pane > 0) await realWaitFor(() => !isProcessAlive(pane), 30_000)
    },
  }
}
