/**
 * Ends the sandboxes of a dsh that died without cleaning up (SIGKILL, a crash). The `bash` tool's
 * sandboxes cannot use `--die-with-parent` (it would end a command's background processes with
 * the command), so each launch carries this launcher's owner id in bubblewrap's argument list
 * (`--setenv DSH_SANDBOX_OWNER ID`), which bubblewrap's init — pid 1 of the sandbox's pid
 * namespace — keeps; and one small watcher, started with the first such launch outside every
 * sandbox and in a session of its own, holds the read end of a pipe only dsh can write. When dsh
 * dies the pipe reports end of file; the watcher then sends SIGKILL to every process whose
 * arguments hold the id (killing a namespace's init makes the kernel end everything in it) until
 * none is left, and exits. Commands cannot stop it: it is outside their pid namespace, and the
 * pipe's write end is in dsh alone. `dispose` closes the pipe the same way when dsh ends normally.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { Socket } from 'node:net'

/** The variable bubblewrap sets inside (and holds in its argument list) to name the owner. */
export const SANDBOX_OWNER_VARIABLE = 'DSH_SANDBOX_OWNER'

/** The watcher: waits for end of file on stdin, then kills every process whose argv holds `$ID`. */
const WATCHER = [
  'while read -r _; do :; done',
  'for round in 1 2 3 4 5 6 7 8 9 10; do',
  '  left=0',
  '  for f in /proc/[0-9]*/cmdline; do',
  '    hit=0',
  '    { while IFS= read -r -d "" arg; do if [ "$arg" = "$ID" ]; then hit=1; break; fi; done < "$f"; } 2>/dev/null',
  '    if [ $hit = 1 ]; then p=${f#/proc/}; kill -KILL "${p%/cmdline}" 2>/dev/null && left=1; fi',
  '  done',
  '  [ $left = 0 ] && exit 0',
  'done',
].join('\n')

/** The owner id of one launcher and its watcher. */
export class SandboxReaper {
  /** Random, so no other dsh's sandboxes match. */
  readonly id = `dsh-sandbox-${randomBytes(8).toString('hex')}`
  #watcher: ChildProcess | undefined
  #disposed = false

  /** Starts the watcher if it is not running (call before a launch that may outlive its call). Never throws. */
  ensure(): void {
    if (this.#watcher !== undefined || this.#disposed) return
    try {
      const watcher = spawn('bash', ['-c', WATCHER], { detached: true, stdio: ['pipe', 'ignore', 'ignore'], env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ID: this.id } })
      // Neither the watcher nor its pipe keeps dsh's event loop alive.
      watcher.unref()
      if (watcher.stdin instanceof Socket) watcher.stdin.unref()
      // A watcher that could not start: the tracker still ends sandboxes when dsh ends normally.
      watcher.on('error', () => undefined)
      watcher.stdin?.on('error', () => undefined)
      this.#watcher = watcher
    } catch {
      // spawn throws only for bad arguments; without a watcher a SIGKILLed dsh leaves its sandboxes.
    }
  }

  /** Whether a process whose arguments hold the id (a sandbox of this launcher) is running now. About 10 µs per process. */
  anyAlive(): boolean {
    let pids: string[]
    try {
      pids = readdirSync('/proc')
    } catch {
      // No /proc (not Linux): nothing can be told, so a sandbox may be running.
      return true
    }
    const needle = `\0${this.id}\0`
    for (const pid of pids) {
      if (pid.charCodeAt(0) > 57) continue
      try {
        if (`\0${readFileSync(`/proc/${pid}/cmdline`, 'latin1')}`.includes(needle)) return true
      } catch {
        // The process ended while the list was read.
      }
    }
    return false
  }

  /** Closes the pipe: the watcher ends what is left and exits. */
  dispose(): void {
    this.#disposed = true
    this.#watcher?.stdin?.end()
    this.#watcher = undefined
  }
}
