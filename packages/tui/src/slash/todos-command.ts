/**
 * `/todos`: the session's task checklist as the model keeps it with `todo_write` (the same fold
 * the plugin reads, so after a rewind or a compaction it is what the model holds), or a line
 * saying there is none.
 */
import { progressText, todoListOf } from '@dsh/todo'
import { todoPlainLines } from '../screen/todo-block.ts'
import type { SlashCommandSpec } from './slash-registry.ts'

export const todosCommand: SlashCommandSpec = {
  name: 'todos',
  usage: '/todos',
  help: "the session's task checklist (the model's todo_write list)",
  run: ({ controller }) => {
    const { items } = todoListOf(controller.agent.session)
    if (items.length === 0) return 'no todo list in this session'
    return [`todo list: ${progressText(items)}`, ...todoPlainLines(items)]
  },
}
