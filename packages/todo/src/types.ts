/**
 * The todo list's contract: what one item is and what the session knows of the list. Types only.
 */

/** Where an item stands. The same three words as ACP's plan entries, Codex's plan and Claude Code's todos. */
export type TodoStatus = 'pending' | 'in_progress' | 'completed'

/** Every status, in the order the list counts them. */
export const TODO_STATUSES: readonly TodoStatus[] = ['pending', 'in_progress', 'completed']

/** One item of the list. */
export interface TodoItem {
  /** What the step does, as the model wrote it (one line, never empty). */
  readonly content: string
  readonly status: TodoStatus
}

/**
 * What a session's visible history says of the list (todo-fold.ts), derived from the log alone so
 * a resumed session, a compaction and a rewind all agree with it.
 */
export interface TodoView {
  /** The current list; empty when none was written (or the latest write cleared it). */
  readonly items: readonly TodoItem[]
  /**
   * Whether the model can see that list now: its latest `todo_write` result or the plugin's
   * reminder is on the visible surface. False when a compaction summarised the call away.
   */
  readonly shown: boolean
}
