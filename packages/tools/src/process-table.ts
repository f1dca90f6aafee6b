/**
 * A snapshot of the machine's live processes from `/proc` (Linux): for each one its process
 * group, its start time (which tells a process from a later one that reuses its pid) and the
 * tool-call marker in its environment. The marker is the value of {@link TOOL_CALL_VARIABLE},
 * which every process a tool call starts inherits unless it clears its environment, so it finds
 * processes that left the call's process group (`setsid`, daemons). Zombies are left out: they
 * are already dead and only wait to be reaped.
 */
import { readdirSync, readFileSync } from 'node:fs'

/** Environment variable that marks the processes of one tool call. */
export const TOOL_CALL_VARIABLE = 'DSH_TOOL_CALL'

/** One live process. */
export interface ProcessEntry {
  readonly pid: number
  /** Process group id. */
  readonly pgid: number
  /** Start time in clock ticks since boot (field 22 of `/proc/PID/stat`). */
  readonly startTicks: string
  /** Value of `DSH_TOOL_CALL` in its environment, when set and readable (same user). */
  readonly marker?: string
}

const markerKey = `${TOOL_CALL_VARIABLE}=`

/** Parses `/proc/PID/stat`: the command name may hold spaces and parentheses, so split after the last `)`. */
function parseStat(text: string): { state: string; pgid: number; startTicks: string } | undefined {
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  const [state, , pgid] = fields
  const startTicks = fields[19]
  if (state === undefined || pgid === undefined || startTicks === undefined) return undefined
  return { state, pgid: Number(pgid), startTicks }
}

function markerOf(root: string, pid: string): string | undefined {
  let environ: string
  try {
    environ = readFileSync(`${root}/${pid}/environ`, 'latin1')
  } catch {
    // Another user's process (EACCES) or one that just exited (ENOENT, ESRCH): it carries no marker we can see.
    return undefined
  }
  for (const entry of environ.split('\0')) if (entry.startsWith(markerKey)) return entry.slice(markerKey.length)
  return undefined
}

/**
 * Live processes other than this one, or `undefined` when the process table cannot be listed (no
 * `/proc`: not Linux, or a restricted mount). `root` is for tests of the parser only.
 */
export function readProcessTable(root = '/proc'): ProcessEntry[] | undefined {
  let names: string[]
  try {
    names = readdirSync(root)
  } catch {
    // No process table here; callers fall back to signalling process groups alone.
    return undefined
  }
  const entries: ProcessEntry[] = []
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue
    let stat: ReturnType<typeof parseStat>
    try {
      stat = parseStat(readFileSync(`${root}/${name}/stat`, 'latin1'))
    } catch {
      // The process exited between the listing and this read: it is not live any more.
      continue
    }
    if (stat === undefined || stat.state === 'Z' || stat.state === 'X') continue
    const marker = markerOf(root, name)
    entries.push({ pid: Number(name), pgid: stat.pgid, startTicks: stat.startTicks, ...(marker === undefined ? {} : { marker }) })
  }
  return entries
}
