/**
 * The cordis plugin: registers `todo_write` and, at an entering step, brings the list back when a
 * compaction summarised away the call that wrote it (a reminder message after the step's other
 * messages). A list whose items are all completed is not brought back. With `enabled: false` it
 * does nothing; the tool and the listener go away with the plugin.
 */
import { randomUUID } from 'node:crypto'
import type { Context } from '@deepseek-ai/cordis'
import type { SessionView, UserMessage } from '@dsh/contracts'
import { TodoFold, TODO_PLUGIN, type TodoData } from './todo-fold.ts'
import { todoReminder } from './todo-text.ts'
import { createTodoTool } from './todo-tool.ts'
import type { TodoItem } from './types.ts'

/** The plugin's configuration. */
export interface TodoConfig {
  /** Offer the tool (default true). */
  readonly enabled?: boolean
}

/** The reminder message of `items`. */
export function reminderMessage(items: readonly TodoItem[]): UserMessage {
  return { id: randomUUID(), role: 'user', content: [{ type: 'text', text: todoReminder(items) }], source: { kind: 'plugin', plugin: TODO_PLUGIN, form: 'snapshot', data: { version: 1, todos: items } satisfies TodoData } }
}

function apply(ctx: Context, config: TodoConfig | undefined): void {
  if (config?.enabled === false) return
  const tools = ctx.get('tools')
  if (tools !== undefined) {
    const dispose = tools.register(createTodoTool())
    ctx.effect(() => dispose, 'todo.tool')
  }
  const folds = new WeakMap<SessionView, TodoFold>()
  ctx.on('agent/pre-step', async (payload, next) => {
    const decision = await next()
    if (decision.kind !== 'enter' || (payload.step === 1 && decision.messages.length === 0)) return decision
    const session = payload.agent.session
    let fold = folds.get(session)
    if (fold === undefined) {
      fold = new TodoFold()
      folds.set(session, fold)
    }
    const view = fold.current(session)
    if (view.shown || !view.items.some((item) => item.status !== 'completed')) return decision
    return { kind: 'enter', messages: [...decision.messages, reminderMessage(view.items)] }
  })
}

/** The plugin (cordis form: `name`, `apply`). */
export const todoPlugin = { name: 'todo', apply: (ctx: Context, config: TodoConfig | undefined) => apply(ctx, config) }
