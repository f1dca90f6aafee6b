/**
 * Listing stored sessions without parsing them: one `stat` per file, the cached scan from the
 * listing index when the file is unchanged, an incremental scan of the appended bytes otherwise.
 * Rows are identified by the file name (what `--resume` takes); a header naming another id (a
 * copied file) is reported once per listing, never shown as a second row.
 */
import { statSync } from 'node:fs'
import { join } from 'node:path'
import type { SessionHeader } from '@dsh/contracts'
import { errnoCode, errorMessage } from './errors.ts'
import { SESSION_SUFFIX, sessionIdsIn } from './session-id.ts'
import { readIndex, writeIndex, type IndexEntry } from './session-index.ts'
import { ScanBuffer, scanSession } from './session-scan.ts'

/** One row of a listing. */
export interface SessionSummary {
  /** Session id: the file name without `.jsonl` (what `--resume` and `sessions show` take). */
  readonly id: string
  /** The header line as stored (cwd, createdAt, origin, parentSession, …). */
  readonly header: SessionHeader
  /** First prompt a person typed (a child session: its delegation), on one line; absent before the first prompt. */
  readonly title?: string
  /** Last change of the file (its mtime). */
  readonly updatedAt: Date
  /** Turns started. */
  readonly turnCount: number
  /** Events after the header. */
  readonly eventCount: number
  /** File size in bytes. */
  readonly size: number
}

/** Inputs of {@link listSessions}. */
export interface ListOptions {
  /** The sessions directory. */
  readonly directory: string
  /** Receives one line per file that cannot be listed or whose header names another id. */
  readonly warn: (line: string) => void
}

function entryFor(file: string, previous: IndexEntry | undefined, reader: ScanBuffer): IndexEntry | undefined {
  let stat
  try {
    stat = statSync(file)
  } catch (error) {
    // Removed between the directory read and now: it is simply no longer stored.
    if (errnoCode(error) === 'ENOENT') return undefined
    throw error
  }
  if (previous !== undefined && previous.ino === stat.ino && previous.size === stat.size && previous.mtimeMs === stat.mtimeMs) return previous
  const sameFile = previous !== undefined && previous.ino === stat.ino
  return { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, scan: scanSession({ file, size: stat.size, previous: sameFile ? previous.scan : undefined, reader }) }
}

/** Lists the sessions of a directory, most recently updated first (ties: larger id first). */
export function listSessions(options: ListOptions): SessionSummary[] {
  const previous = readIndex(options.directory)
  const next = new Map<string, IndexEntry>()
  const rows: SessionSummary[] = []
  const reader = new ScanBuffer()
  for (const id of sessionIdsIn(options.directory)) {
    const name = `${id}${SESSION_SUFFIX}`
    const file = join(options.directory, name)
    let entry: IndexEntry | undefined
    try {
      entry = entryFor(file, previous.get(name), reader)
    } catch (error) {
      // One unreadable file must not hide the others: say which one and why, and go on.
      options.warn(`skipping ${file}: ${errorMessage(error)}`)
      continue
    }
    if (entry === undefined) continue
    next.set(name, entry)
    const { scan } = entry
    if (scan.header.id !== id) options.warn(`${file}: its header names session ${JSON.stringify(scan.header.id)}; listed by its file name "${id}"`)
    rows.push({ id, header: scan.header, ...(scan.title === undefined ? {} : { title: scan.title }), updatedAt: new Date(entry.mtimeMs), turnCount: scan.turnCount, eventCount: scan.eventCount, size: entry.size })
  }
  const changed = next.size !== previous.size || [...next].some(([name, entry]) => previous.get(name) !== entry)
  if (changed) writeIndex(options.directory, next)
  return rows.toSorted((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || b.id.localeCompare(a.id))
}

/**
 * A session worth resuming: a top-level one (subagent children are reached through their parent)
 * that has a turn (one left before its first prompt has nothing to go back to).
 */
export const isResumable = (row: SessionSummary): boolean => row.header.origin !== 'subagent' && row.turnCount !== 0

/** The newest resumable session of a listing started in `cwd` (`--continue`), if any. */
export function latestResumableIn(rows: readonly SessionSummary[], cwd: string): SessionSummary | undefined {
  return rows.find((row) => isResumable(row) && row.header.cwd === cwd)
}
