// Processes a test started through dsh (sleepers a tool call left behind): whether one still runs,
// a list the test's afterEach SIGKILLs so that a failing test leaves none behind, and the host pid
// of a sleeper found by its command line, or of processes found by a marker in their environment.
import { readdirSync, readFileSync } from 'node:fs'
import { isProcessAlive } from '@dsh/testkit'

/** True while `pid` runs (a zombie, dead and waiting to be reaped, does not count). */
export const isAlive = isProcessAlive

/** Pids to end after each test; `endAll` SIGKILLs those still running and forgets them all. */
export class StartedProcesses {
  readonly #pids: number[] = []

  add(...pids: readonly number[]): void {
    this.#pids.push(...pids.filter((pid) => pid > 0))
  }

  endAll(): void {
    for (const pid of this.#pids.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL')
  }
}

/**
 * The host pid of the live process whose command line is exactly `argv`, or 0. Pids a sandboxed
 * command writes (`$$`, `$!`) are its own pid namespace's, so tests find their sleepers this way,
 * by a unique argument (`sleep 60.123`).
 */
export function hostPidOf(argv: readonly string[]): number {
  const wanted = `${argv.join('\0')}\0`
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8') === wanted && isAlive(Number(name))) return Number(name)
    } catch {
      // The process exited between the listing and the read.
    }
  }
  return 0
}

/** The host pids of live processes whose environment holds `NAME=value` exactly (a marker unique to the test). */
export function pidsWithEnv(name: string, value: string): number[] {
  const wanted = `${name}=${value}`
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(wanted) && isAlive(Number(entry))) pids.push(Number(entry))
    } catch {
      // The process exited between the listing and the read, or is not ours to read.
    }
  }
  return pids
}
