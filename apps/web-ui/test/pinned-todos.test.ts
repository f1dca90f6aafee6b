// Which checklist the page pins: the last todo_write row that succeeded; a refused one, a running
// one (no result yet) and other tools do not count.
import { describe, expect, it } from 'vitest'
import type { ChatItem } from '../src/chat-state.ts'
import { lastTodoEntries } from '../src/pinned-todos.tsx'

const todoRow = (id: string, todos: unknown, result?: { readonly isError: boolean }): ChatItem => ({ id, kind: 'tool', callId: id, name: 'todo_write', arguments: JSON.stringify({ todos }), ...(result === undefined ? {} : { result: 'r', isError: result.isError }) })

describe('the pinned checklist of the page', () => {
  it('is the last todo_write that succeeded', () => {
    const first = [{ content: 'One', status: 'in_progress' }]
    const items: ChatItem[] = [
      todoRow('a', first, { isError: false }),
      todoRow('b', [{ content: 'Two', status: 'in_progress' }], { isError: true }),
      todoRow('c', [{ content: 'Three', status: 'pending' }]),
      { id: 'd', kind: 'tool', callId: 'd', name: 'read', arguments: '{}', result: 'x', isError: false },
    ]
    expect(lastTodoEntries(items)).toEqual(first)
    expect(lastTodoEntries([])).toBeUndefined()
  })
})
