/**
 * The `todo_write` tool: the whole list in, the list as the model should read it back out. It
 * touches no file and needs no permission; what it changed lives in the session log (the call's
 * arguments and a `todo/list` event of the list as it ran), which is where the fold and every
 * front end read it from.
 */
import type { ToolDefinition } from '@dsh/contracts'
import { todoParameters, type TodoArgs } from './todo-args.ts'
import { TODO_LIST_EVENT, type TodoData } from './todo-fold.ts'
import { TODO_TOOL_DESCRIPTION, todoResult, tooManyInProgress } from './todo-text.ts'

/** The tool's name (Claude Code's `TodoWrite` in permission rules and hook matchers means it). */
export const TODO_TOOL = 'todo_write'

/** The tool. */
export function createTodoTool(): ToolDefinition<TodoArgs> {
  return {
    name: TODO_TOOL,
    description: TODO_TOOL_DESCRIPTION,
    parameters: todoParameters,
    readOnly: true,
    execute(args, run) {
      const todos = args.todos
      if (todos.filter((item) => item.status === 'in_progress').length > 1) return Promise.resolve({ isError: true, content: tooManyInProgress(todos) })
      // The list as it ran (a hook may have replaced the model's arguments), for the fold and replays.
      run.execution.agent?.recordEvent?.(TODO_LIST_EVENT, { version: 1, callId: run.execution.callId, todos } satisfies TodoData)
      return Promise.resolve({ content: todoResult(todos), meta: { todos } })
    },
  }
}
