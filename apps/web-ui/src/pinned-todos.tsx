/**
 * The model's checklist pinned above the usage line and the Message box while a turn runs and
 * something on it is open, as the chat pins it: the progress, then the open items in order (at
 * most {@link PINNED_ITEMS}, then a count of the rest). The list is the last successful
 * `todo_write` row the stream added since the history was read, else the list that history read
 * carried (the log's, so a compacted or reloaded session still pins its list); between turns
 * nothing is pinned (the rows show it).
 */
import type { JSX } from 'preact'
import { useMemo } from 'preact/hooks'
import type { ChatItem } from './chat-state.ts'
import { useStrings } from './i18n.ts'
import { todoCounts, todoEntries, TodoListView, type TodoEntry } from './todo-list.tsx'

/** How many open items are pinned. */
export const PINNED_ITEMS = 5

/** The items of the last `todo_write` row that succeeded (a running one does not count yet). */
export function lastTodoEntries(items: readonly ChatItem[]): readonly TodoEntry[] | undefined {
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index]
    if (item?.kind !== 'tool' || item.name !== 'todo_write' || item.result === undefined || item.isError === true) continue
    const entries = todoEntries(item.name, item.arguments)
    if (entries !== undefined) return entries
  }
  return undefined
}

/**
 * The list to pin: the last successful `todo_write` row the stream added (ids `s…`; rows read
 * with the history are `h…` and already folded into `fromHistory`), else `fromHistory`.
 */
export function pinnedEntries(items: readonly ChatItem[], fromHistory: readonly TodoEntry[]): readonly TodoEntry[] {
  const streamed = items.filter((item) => !item.id.startsWith('h'))
  return lastTodoEntries(streamed) ?? fromHistory
}

export function PinnedTodos(props: { readonly items: readonly ChatItem[]; readonly todos: readonly TodoEntry[]; readonly busy: boolean }): JSX.Element | null {
  const t = useStrings()
  const entries = useMemo(() => pinnedEntries(props.items, props.todos), [props.items, props.todos])
  if (!props.busy) return null
  const open = entries.filter((entry) => entry.status !== 'completed')
  if (open.length === 0) return null
  const counts = todoCounts(entries)
  const more = open.length - PINNED_ITEMS
  return (
    <aside class="pinned-todos" aria-label={t.checklist}>
      <p class="pinned-progress">
        {t.checklist}: {t.todoProgress(counts.done, counts.total)}
      </p>
      <TodoListView entries={open.slice(0, PINNED_ITEMS)} />
      {more > 0 ? <p class="pinned-more">{t.todoMore(more)}</p> : null}
    </aside>
  )
}
