/** Public surface of @dsh/todo (curated re-exports only). */
export { todoPlugin, reminderMessage, type TodoConfig } from './plugin.ts'
export { createTodoTool, TODO_TOOL } from './todo-tool.ts'
export { TodoFold, todoListOf, reminderTodos, TODO_PLUGIN, TODO_LIST_EVENT, type TodoData } from './todo-fold.ts'
export { todosOfArguments, todosOfData, todoParameters, MAX_TODOS, MAX_TODO_CHARS, type TodoArgs } from './todo-args.ts'
export { STATUS_MARKER, TODO_TOOL_DESCRIPTION, nextItem, progressText, todoLines, todoReminder, todoResult, tooManyInProgress } from './todo-text.ts'
export { TODO_STATUSES, type TodoItem, type TodoStatus, type TodoView } from './types.ts'
