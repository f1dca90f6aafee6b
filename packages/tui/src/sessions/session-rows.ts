/**
 * Rows for the session picker, `--continue` and `/sessions`, from the store's listing: top-level
 * sessions only (subagent children are reached through their parent), newest first, with a
 * one-line title (the first prompt a person typed), the time of the last change, the turns and
 * the cwd. The pickers and `--continue` leave out sessions without a turn.
 */
import { isResumable, latestResumableIn, type SessionStore, type SessionSummary } from '@dsh/runtime'
import { oneLine } from '../text-safety.ts'

/** One stored session as the chat shows it. */
export interface SessionRow {
  readonly id: string
  /** First typed prompt on one line, or `(no prompt yet)`. */
  readonly title: string
  /** Last change. */
  readonly updatedAt: Date
  /** Turns started, when the listing knows them. */
  readonly turns?: number
  /** Working directory it was started in. */
  readonly cwd: string
}

/** The row of one listed session. */
const rowOf = (row: SessionSummary): SessionRow => ({ id: row.id, title: row.title === undefined ? '(no prompt yet)' : oneLine(row.title, 200), updatedAt: row.updatedAt, turns: row.turnCount, cwd: row.header.cwd })

/** Top-level sessions, newest first. */
export function sessionRows(store: SessionStore): SessionRow[] {
  return store
    .list()
    .filter((row) => row.header.origin !== 'subagent')
    .map(rowOf)
}

/**
 * The sessions worth resuming (the pickers, `--continue`: `isResumable` of @dsh/runtime), newest
 * first, without `current` (the one the chat is in). `/sessions` and `dsh sessions list` still
 * show the others.
 */
export function resumableRows(store: SessionStore, current?: string): SessionRow[] {
  return store
    .list()
    .filter((row) => isResumable(row) && row.id !== current)
    .map(rowOf)
}

/** The latest resumable session started in `cwd`, if any (`--continue`; `dsh run -c` reads the same). */
export function latestSessionIn(store: SessionStore, cwd: string): SessionRow | undefined {
  const latest = latestResumableIn(store.list(), cwd)
  return latest === undefined ? undefined : rowOf(latest)
}
