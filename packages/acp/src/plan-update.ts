/**
 * The task checklist as ACP's agent plan: each `todo_write` that succeeds sends the whole list
 * (`sessionUpdate: 'plan'`; the client replaces its plan with each one), and `session/load` ends
 * its replay with the list the session holds. dsh's items have no priority: every entry is
 * `medium`. The statuses are ACP's own three.
 */
import type { SessionUpdate } from '@agentclientprotocol/sdk'
import type { ToolFinalOutcome } from '@dsh/contracts'
import { todosOfData, TODO_TOOL, type TodoItem } from '@dsh/todo'

/** The plan update of `items`. */
export const planUpdate = (items: readonly TodoItem[]): SessionUpdate => ({ sessionUpdate: 'plan', entries: items.map((item) => ({ content: item.content, priority: 'medium', status: item.status })) })

/** The plan update a finished call makes, if it is a successful `todo_write`. */
export function planOfOutcome(name: string, outcome: ToolFinalOutcome): SessionUpdate | undefined {
  if (name !== TODO_TOOL || outcome.isError) return undefined
  const items = todosOfData({ todos: outcome.meta?.['todos'] })
  return items === undefined ? undefined : planUpdate(items)
}
