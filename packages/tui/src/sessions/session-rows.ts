/**
 * Rows for the session picker, `--continue` and `/sessions`, from the store's listing: top-level
 * sessions only (subagent children are reached through their parent), newest first, with a
 * one-line title (the first prompt a person typed), the time of the last change, the turns and
 * the cwd. The pickers and `--continue` leave out sessions without a turn.
 */
import type { SessionStore } from '@dsh/runtime'
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

/** Top-level sessions, newest first. */
export function sessionRows(store: SessionStore): SessionRow[] {
  return store
    .list()
    .filter((row) => row.header.origin !== 'subagent')
    .map((row) => ({ id: row.id, title: row.title === undefined ? '(no prompt yet)' : oneLine(row.title, 200), updatedAt: row.updatedAt, turns: row.turnCount, cwd: row.header.cwd }))
}

/**
 * The sessions worth resuming (the pickers, `--continue`): top-level sessions with a turn, newest
 * first, without `current` (the one the chat is in). A session left before its first prompt has
 * nothing to go back to; `/sessions` and `dsh sessions list` still show it.
 */
export function resumableRows(store: SessionStore, current?: string): SessionRow[] {
  return sessionRows(store).filter((row) => row.turns !== 0 && row.id !== current)
}

/** The latest resumable session started in `cwd`, if any (`--continue`). */
export function latestSessionIn(store: SessionStore, cwd: string): SessionRow | undefined {
  return resumableRows(store).find((row) => row.cwd === cwd)
}
