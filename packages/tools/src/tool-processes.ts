/**
 * The processes that tool calls of one host leave running, kept until the host ends.
 *
 * Every call gets a marker `<owner>:<n>` (see process-table.ts) whose owner part is unique to this
 * tracker, so `endAll` finds everything the calls started that is still running, wherever it went:
 * background jobs in a call's process group, `nohup` children, and `setsid` escapes that kept the
 * inherited environment. A finished call's process group is remembered only while one of its
 * members is alive to vouch for it: once a group empties, its number may be reused by an unrelated
 * process, and from then on only markers identify what is ours.
 */
import { randomBytes } from 'node:crypto'
import { endProcesses, killProcessesNow, type ProcessSelection } from './process-ending.ts'
import { readProcessTable } from './process-table.ts'

/** A group member seen when the call finished: the group is ours while one still runs in it. */
interface Witness {
  readonly pid: number
  readonly startTicks: string
}

function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return true
  } catch {
    // ESRCH: the group is empty, so there is nothing to keep.
    return false
  }
}

/** Options of {@link ToolProcesses}. */
export interface ToolProcessesOptions {
  /** Time between SIGTERM and SIGKILL in `endAll` (default 2000 ms). */
  readonly graceMs?: number
}

/** Tracks what tool calls left running; `endAll` ends it (call it when the host ends). */
export class ToolProcesses {
  readonly #owner = `${process.pid}.${randomBytes(4).toString('hex')}`
  readonly #graceMs: number
  readonly #witnesses = new Map<number, readonly Witness[]>()
  #calls = 0

  constructor(options: ToolProcessesOptions = {}) {
    this.#graceMs = options.graceMs ?? 2_000
  }

  /** A fresh marker for one tool call; pass it as `DSH_TOOL_CALL` to the processes it starts. */
  nextMarker(): string {
    this.#calls += 1
    return `${this.#owner}:${this.#calls}`
  }

  /**
   * After a call's leader exited normally: remembers its process group while members still run in
   * it. Returns false when that cannot be tracked safely (no process table to tell the group from a
   * later one that reuses its number): the caller should end the group now instead.
   */
  keep(pgid: number): boolean {
    if (!groupExists(pgid)) return true
    const table = readProcessTable()
    if (table === undefined) return false
    const members = table.filter((entry) => entry.pgid === pgid).map((entry) => ({ pid: entry.pid, startTicks: entry.startTicks }))
    if (members.length > 0) this.#witnesses.set(pgid, members)
    return true
  }

  /** Ends everything the calls left running: SIGTERM, the grace period, then SIGKILL. */
  async endAll(): Promise<void> {
    await endProcesses(this.#selection(), { graceMs: this.#graceMs })
    this.#witnesses.clear()
  }

  /** SIGKILLs everything the calls left running, synchronously (for a process that is exiting now). */
  killAllNow(): void {
    killProcessesNow(this.#selection())
    this.#witnesses.clear()
  }

  /** The kept groups that a witness still vouches for, and every marker of this tracker. */
  #selection(): ProcessSelection {
    const table = readProcessTable() ?? []
    const vouches = (pgid: number, witness: Witness): boolean => table.some((entry) => entry.pid === witness.pid && entry.startTicks === witness.startTicks && entry.pgid === pgid)
    const groups = [...this.#witnesses].flatMap(([pgid, witnesses]) => (witnesses.some((witness) => vouches(pgid, witness)) ? [pgid] : []))
    const prefix = `${this.#owner}:`
    return { groups, marker: (marker) => marker.startsWith(prefix) }
  }
}
