/**
 * Everything of the todo list the model reads: the tool's description, its result, its refusal
 * and the reminder after a compaction. One marker per status, so a list reads the same in every
 * text (and in the terminal, which colours the same markers).
 */
import { escapeFrameText } from '@dsh/workspace-context'
import type { TodoItem, TodoStatus } from './types.ts'

/** The tool's description. */
export const TODO_TOOL_DESCRIPTION =
  'Keeps the checklist of the task you are working on; the person sees it update as you go. ' +
  'Use it when the work takes three or more distinct steps or the person asks for several things: ' +
  'write the list as soon as you know the steps, set an item to in_progress when you start it (one at a time) ' +
  'and to completed as soon as it is done, and add the steps you discover. ' +
  'Every call sends the whole list, which replaces the previous one; an empty list clears it. ' +
  'Skip it for a task of one or two quick steps. The list is kept when the conversation is compacted.'

/** The marker of each status. */
export const STATUS_MARKER: Readonly<Record<TodoStatus, string>> = { pending: '[ ]', in_progress: '[>]', completed: '[x]' }

/** The list, one `[marker] content` line per item. */
export const todoLines = (items: readonly TodoItem[]): string[] => items.map((item) => `${STATUS_MARKER[item.status]} ${item.content}`)

/** `2 of 5 completed` / `all 5 completed`. */
export function progressText(items: readonly TodoItem[]): string {
  const done = items.filter((item) => item.status === 'completed').length
  return done === items.length ? `all ${items.length} completed` : `${done} of ${items.length} completed`
}

/** The item to carry on with: the one in progress, else the first pending one. */
export const nextItem = (items: readonly TodoItem[]): TodoItem | undefined => items.find((item) => item.status === 'in_progress') ?? items.find((item) => item.status === 'pending')

/** The result of a successful `todo_write`. */
export function todoResult(items: readonly TodoItem[]): string {
  if (items.length === 0) return 'Todo list cleared.'
  const next = nextItem(items)
  return [`Todo list updated: ${progressText(items)}.`, ...todoLines(items), ...(next === undefined ? [] : [`Carry on with: ${next.content}`])].join('\n')
}

/** The refusal of a list with more than one item in progress. */
export function tooManyInProgress(items: readonly TodoItem[]): string {
  const busy = items.filter((item) => item.status === 'in_progress').map((item) => `"${item.content}"`)
  return `Only one item may be in_progress at a time, and ${busy.length} are: ${busy.join(', ')}. Set the others to pending or completed and call todo_write again with the whole list.`
}

/** The reminder that brings the list back after a compaction summarised the call that wrote it away. */
export function todoReminder(items: readonly TodoItem[]): string {
  const lines = todoLines(items).map((line) => escapeFrameText(line))
  return ['<system-reminder>', `The todo list you kept before the conversation was compacted (${progressText(items)}). Keep it up to date with todo_write:`, ...lines, '</system-reminder>'].join('\n')
}
