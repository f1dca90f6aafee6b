/**
 * Whether a process still runs, for tests that check what a tool call left behind: a signal probe,
 * then (where `/proc` exists) its state, since a zombie is dead and only waits to be reaped.
 */
import { existsSync, readFileSync } from 'node:fs'

/** True while `pid` names a live process (not a zombie). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    // ESRCH: no such process, which is the answer.
    return false
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z'
  } catch {
    // Without procfs (macOS) the signal probe is the answer; with it, the process just vanished.
    return !existsSync('/proc/self')
  }
}
