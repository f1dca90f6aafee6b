/**
 * The task checklist under a finished `todo_write` row: one line per item, done items dim green, the one in progress bold cyan, pending ones plain, each cut to the width. The
 * plain mode prints the same lines without colour (`todoPlainLines`).
 */
import { truncateToWidth, type Component } from '@mariozechner/pi-tui'
import type { TodoItem, TodoStatus } from '@dsh/todo'
import type { Theme } from '../theme.ts'
import { oneLine } from '../text-safety.ts'

/** The mark of each status in the terminal. */
const MARK: Readonly<Record<TodoStatus, string>> = { completed: '✔', in_progress: '▸', pending: '○' }

/** The items as plain lines (`  ✔ Read the test`). */
export const todoPlainLines = (items: readonly TodoItem[], indent = '  '): string[] => items.map((item) => `${indent}${MARK[item.status]} ${oneLine(item.content, 200)}`)

/** Renders a checklist. */
export class TodoBlock implements Component {
  readonly #items: readonly TodoItem[]
  readonly #theme: Theme

  constructor(items: readonly TodoItem[], theme: Theme) {
    this.#items = items
    this.#theme = theme
  }

  #style(item: TodoItem): string {
    const t = this.#theme
    const text = `${MARK[item.status]} ${oneLine(item.content, 200)}`
    switch (item.status) {
      case 'completed':
        return t.dim(t.green(text))
      case 'in_progress':
        return t.bold(t.cyan(text))
      case 'pending':
        return text
      default: {
        const unknown: never = item.status
        return String(unknown)
      }
    }
  }

  render(width: number): string[] {
    return this.#items.map((item) => truncateToWidth(`    ${this.#style(item)}`, width))
  }

  invalidate(): void {
    // Nothing cached: lines are styled on every render.
  }
}
