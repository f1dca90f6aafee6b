/**
 * Rows for the session picker, `--continue` and `/sessions`, from the store's listing: top-level
 * sessions only (subagent children are reached through their parent), newest first, with a
 * one-line title (the first prompt a person typed), the time of the last change and the cwd.
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
    .map((row) => ({ id: row.id, title: row.firstPrompt === undefined ? '(no prompt yet)' : oneLine(row.firstPrompt, 200), updatedAt: row.modifiedAt, cwd: row.header.cwd }))
}

/** The latest top-level session started in `cwd`, if any (`--continue`). */
export function latestSessionIn(store: SessionStore, cwd: string): SessionRow | undefined {
  return sessionRows(store).find((row) => row.cwd === cwd)
}

/** `just now`, `3 min ago`, `2 h ago`, `5 days ago`, or the date for older times. */
export function relativeTime(then: Date, now: Date): string {
  const seconds = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000))
  if (seconds < 45) return 'just now'
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `${minutes} min ago`
  const hours = Math.round(minutes / 60)
  if (hours < 24) return `${hours} h ago`
  const days = Math.round(hours / 24)
  if (days < 30) return `${days} ${days === 1 ? 'day' : 'days'} ago`
  return then.toISOString().slice(0, 10)
}
