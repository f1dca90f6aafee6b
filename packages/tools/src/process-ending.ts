/**
 * Ends a set of processes for good: the members of a tool call's process group and every process
 * carrying one of its markers (see process-table.ts), so children that escaped the group with
 * `setsid` or `nohup … &` are ended too. `endProcesses` sends SIGTERM, waits up to a grace period
 * for them to exit, then sends SIGKILL until a scan finds none (children forked meanwhile are
 * caught by the next scan). `killProcessesNow` is the synchronous SIGKILL-only form for moments
 * that cannot wait (process exit). Without a process table only the groups are signalled.
 */
import { readProcessTable, type ProcessEntry } from './process-table.ts'

/** Which processes to end. */
export interface ProcessSelection {
  /** Process groups whose members are ours (only groups known not to have been reused). */
  readonly groups: readonly number[]
  /** True for a marker (the value of `DSH_TOOL_CALL`) that belongs to the selection. */
  readonly marker: (marker: string) => boolean
}

const POLL_MS = 25
const KILL_ROUNDS = 20

function send(target: number, signal: NodeJS.Signals): void {
  try {
    process.kill(target, signal)
  } catch (error) {
    // ESRCH: it is already gone, the goal. EPERM: it changed user (setuid); nothing more can be
    // done. Anything else is unexpected; this runs from timers and exit hooks, where a throw would
    // crash the process, so it is reported as a warning instead.
    const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined
    if (code !== 'ESRCH' && code !== 'EPERM') process.emitWarning(`dsh: could not send ${signal} to ${target}: ${String(error)}`)
  }
}

function members(selection: ProcessSelection, table: readonly ProcessEntry[]): ProcessEntry[] {
  return table.filter((entry) => selection.groups.includes(entry.pgid) || (entry.marker !== undefined && selection.marker(entry.marker)))
}

/** Signals the groups and the listed processes; returns how many processes were found. */
function signalAll(selection: ProcessSelection, signal: NodeJS.Signals): number | undefined {
  for (const group of selection.groups) send(-group, signal)
  const table = readProcessTable()
  if (table === undefined) return undefined
  const found = members(selection, table)
  for (const entry of found) send(entry.pid, signal)
  return found.length
}

function groupsAlive(groups: readonly number[]): boolean {
  return groups.some((group) => {
    try {
      process.kill(-group, 0)
      return true
    } catch {
      // ESRCH: no member left (EPERM cannot happen for a group we started).
      return false
    }
  })
}

function anyLeft(selection: ProcessSelection): boolean {
  const table = readProcessTable()
  return table === undefined ? groupsAlive(selection.groups) : members(selection, table).length > 0
}

const pause = (ms: number): Promise<void> => new Promise((wake) => setTimeout(wake, ms))

/** SIGTERM, up to `graceMs` to exit, then SIGKILL until none is left (bounded rounds). */
export async function endProcesses(selection: ProcessSelection, options: { readonly graceMs: number }): Promise<void> {
  if (signalAll(selection, 'SIGTERM') === 0 && !groupsAlive(selection.groups)) return
  const deadline = Date.now() + options.graceMs
  while (Date.now() < deadline) {
    await pause(POLL_MS)
    if (!anyLeft(selection)) return
  }
  for (let round = 0; round < KILL_ROUNDS; round += 1) {
    const found = signalAll(selection, 'SIGKILL')
    if (found === 0 || (found === undefined && !groupsAlive(selection.groups))) return
    await pause(POLL_MS)
  }
}

/** SIGKILL now, synchronously, with a few rescans for children forked in between. */
export function killProcessesNow(selection: ProcessSelection): void {
  for (let round = 0; round < 3; round += 1) {
    const found = signalAll(selection, 'SIGKILL')
    if (found === 0 || found === undefined) return
  }
}
