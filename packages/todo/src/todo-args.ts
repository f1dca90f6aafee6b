/**
 * The arguments of `todo_write`: the zod schema the model's call is validated with, and the same
 * reading of a logged call's raw JSON (front ends replaying a session, the fold over the log).
 */
import { z } from 'zod'
import type { TodoItem } from './types.ts'

/** Most items one list holds. */
export const MAX_TODOS = 50
/** Most characters of one item. */
export const MAX_TODO_CHARS = 300

/** Some text and no line break: each item is one line of every list the model and the person read. */
const ONE_LINE = /^(?=.*\S)[^\r\n\u2028\u2029]+$/u

const item = z.strictObject({
  content: z.string().max(MAX_TODO_CHARS).regex(ONE_LINE, 'one line of text, not blank and without line breaks').describe('What the step does, in a few words (one line).'),
  status: z.enum(['pending', 'in_progress', 'completed']).describe('pending, in_progress (the one you work on now) or completed.'),
})

/** The tool's parameters. */
export const todoParameters = z.strictObject({
  todos: z.array(item).max(MAX_TODOS).describe('The whole list, in order; it replaces the previous one.'),
})

/** Arguments of `todo_write`. */
export type TodoArgs = z.infer<typeof todoParameters>

/** The items of a logged call's raw JSON arguments; `undefined` when they are not a valid list. */
export function todosOfArguments(raw: string): readonly TodoItem[] | undefined {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    // Malformed arguments: that call failed validation and changed no list.
    return undefined
  }
  const parsed = todoParameters.safeParse(value)
  return parsed.success ? parsed.data.todos : undefined
}

/** The items held in a reminder's persisted data; `undefined` when it is not a list. */
export function todosOfData(value: unknown): readonly TodoItem[] | undefined {
  const parsed = todoParameters.safeParse(value)
  return parsed.success ? parsed.data.todos : undefined
}
