/**
 * The private temp directory of one session's sandboxed commands: created on first use as
 * `<temp>/dsh-tmp-<pid>-<start>-<random>` (mode 0700) and bound over the temp directory inside the
 * sandbox, so what commands leave in `/tmp` is removed when the session (or dsh) ends (`dispose`). A directory left
 * by a dsh that crashed is removed at the next start (`removeStaleSessionTemps`): its name says
 * which process made it, and that process (pid and start time) no longer runs.
 */
import { randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'

const prefix = 'dsh-tmp-'

/** Start time of a process in clock ticks (`/proc/PID/stat` field 22), or undefined when it is gone. */
function startOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
  } catch {
    // No such process (or no /proc): treated as gone only when /proc exists, see below.
    return undefined
  }
}

/** Removes the private temp directories of dsh processes that no longer run. Never throws. */
export function removeStaleSessionTemps(tempDir: string): void {
  let names: string[]
  try {
    if (startOf(process.pid) === undefined) return // no /proc: liveness cannot be told, remove nothing
    names = readdirSync(tempDir)
  } catch {
    // An unreadable temp directory: nothing can be cleaned, and nothing depends on it.
    return
  }
  for (const name of names) {
    const match = /^dsh-tmp-(\d+)-(\d+)-[0-9a-f]+$/.exec(name)
    if (match === null) continue
    if (startOf(Number(match[1])) === match[2]) continue
    try {
      rmSync(join(tempDir, name), { recursive: true, force: true })
    } catch {
      // Another user's directory (EPERM) or one removed meanwhile: left alone.
    }
  }
}

/** The private temp directory of one session of this process. */
export class SessionTemp {
  readonly #tempDir: string
  #path: string | undefined

  constructor(tempDir: string) {
    this.#tempDir = tempDir
  }

  /** The directory, created on first call. */
  path(): string {
    if (this.#path === undefined) {
      const path = join(this.#tempDir, `${prefix}${process.pid}-${startOf(process.pid) ?? '0'}-${randomBytes(4).toString('hex')}`)
      mkdirSync(path, { mode: 0o700 })
      this.#path = path
    }
    return this.#path
  }

  /** Removes the directory and everything in it (call when the host ends; again is harmless). */
  dispose(): void {
    if (this.#path === undefined) return
    try {
      rmSync(this.#path, { recursive: true, force: true })
    } catch {
      // A file a command made unremovable (a read-only directory of another owner): the next start retries.
    }
    this.#path = undefined
  }
}
