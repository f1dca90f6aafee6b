/**
 * The model's checklist pinned above the status line while a turn runs and something on it is
 * unfinished, so the plan stays in sight after its `todo_write` row has scrolled away: one line of
 * progress (`checklist: 2 of 5 completed`), then the unfinished items in order (the one in progress
 * bold cyan), at most {@link PINNED_ITEMS} of them and a line counting the rest. Between turns it
 * is empty (the transcript's rows and `/todos` show the list). A replayed session pins the list
 * the todo plugin folds from it (`todoListOf`), which a compaction keeps.
 */
import { truncateToWidth, type Component } from '@mariozechner/pi-tui'
import { progressText, type TodoItem } from '@dsh/todo'
import type { Theme } from '../theme.ts'
import { oneLine } from '../text-safety.ts'

/** How many unfinished items the pinned list shows. */
export const PINNED_ITEMS = 5

/** The pinned lines, unstyled (`checklist: 1 of 3 completed`, `  ▸ Run the tests`, …); none when everything is done. */
export function pinnedLines(items: readonly TodoItem[]): { readonly text: string; readonly current: boolean }[] {
  const open = items.filter((item) => item.status !== 'completed')
  if (open.length === 0) return []
  const shown = open.slice(0, PINNED_ITEMS).map((item) => ({ text: `  ${item.status === 'in_progress' ? '▸' : '○'} ${oneLine(item.content, 200)}`, current: item.status === 'in_progress' }))
  const more = open.length - shown.length
  return [{ text: `checklist: ${progressText(items)}`, current: false }, ...shown, ...(more > 0 ? [{ text: `  … ${more} more`, current: false }] : [])]
}

/** The component between the transcript and the queue area. */
export class PinnedTodos implements Component {
  #items: readonly TodoItem[] = []
  readonly #theme: Theme

  constructor(theme: Theme) {
    this.#theme = theme
  }

  /** Shows `items` (an empty list hides it). */
  set(items: readonly TodoItem[]): void {
    this.#items = items
  }

  render(width: number): string[] {
    const lines = pinnedLines(this.#items)
    if (lines.length === 0) return []
    const t = this.#theme
    return ['', ...lines.map((line, index) => truncateToWidth(index === 0 ? t.dim(line.text) : line.current ? t.bold(t.cyan(line.text)) : line.text, width))]
  }

  invalidate(): void {
    // Nothing cached: lines are built on every render.
  }
}
