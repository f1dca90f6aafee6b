/**
 * The task checklist of a `todo_write` call, shown instead of its JSON arguments: one line per
 * item with its mark (done, in progress, to do). The page reads the arguments itself (it bundles
 * no server package); arguments that are not such a list are no checklist, and the row then shows
 * them as they are.
 */
import type { JSX } from 'preact'

/** One item. */
export interface TodoEntry {
  readonly content: string
  readonly status: 'pending' | 'in_progress' | 'completed'
}

const STATUSES: readonly TodoEntry['status'][] = ['pending', 'in_progress', 'completed']
const isStatus = (value: unknown): value is TodoEntry['status'] => STATUSES.some((status) => status === value)

function entryOf(value: unknown): TodoEntry | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const content: unknown = Reflect.get(value, 'content')
  const status: unknown = Reflect.get(value, 'status')
  if (typeof content !== 'string' || !isStatus(status)) return undefined
  return { content, status }
}

/** The items of a `todo_write` call's arguments; `undefined` for any other call or arguments that are not a list. */
export function todoEntries(name: string, args: string): readonly TodoEntry[] | undefined {
  if (name !== 'todo_write') return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(args)
  } catch {
    // Broken JSON from the model: that call failed validation; the row shows the text as it is.
    return undefined
  }
  const todos: unknown = typeof parsed === 'object' && parsed !== null ? Reflect.get(parsed, 'todos') : undefined
  if (!Array.isArray(todos)) return undefined
  const entries = todos.map(entryOf)
  return entries.every((entry) => entry !== undefined) ? entries : undefined
}

/** How many items are done, and how many there are. */
export const todoCounts = (entries: readonly TodoEntry[]): { readonly done: number; readonly total: number } => ({ done: entries.filter((entry) => entry.status === 'completed').length, total: entries.length })

const MARK: Readonly<Record<TodoEntry['status'], string>> = { completed: '✔', in_progress: '▸', pending: '○' }

/** The checklist. */
export function TodoListView(props: { readonly entries: readonly TodoEntry[] }): JSX.Element {
  return (
    <ul class="todo-list">
      {props.entries.map((entry, index) => (
        <li key={index} class={`todo-${entry.status.replace('_', '-')}`}>
          <span class="todo-mark" aria-hidden="true">
            {MARK[entry.status]}
          </span>{' '}
          {entry.content}
        </li>
      ))}
    </ul>
  )
}
