// Processes a test started through dsh (sleepers a tool call left behind): whether one still runs,
// and a list the test's afterEach SIGKILLs so that a failing test leaves none behind.
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
