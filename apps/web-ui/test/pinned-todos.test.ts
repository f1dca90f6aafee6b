// Which checklist the page pins: the last todo_write row that succeeded; a refused one, a running
// one (no result yet) and other tools do not count. Rows read with the history give way to the
// list that history read carried (the log's, kept through a compaction); a row streamed after it
// is newer than both.
import { describe, expect, it } from 'vitest'
import type { ChatItem } from '../src/chat-state.ts'
import { lastTodoEntries, pinnedEntries } from '../src/pinned-todos.tsx'

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

  it("is the history's list until the stream adds a todo_write that succeeds", () => {
    const logged = [{ content: 'Fix the parser', status: 'in_progress' }] as const
    const streamed = [{ content: 'Run the suite', status: 'in_progress' }]
    // A compacted session: no todo_write row in its history, yet the log keeps the list.
    expect(pinnedEntries([{ id: 'h0', kind: 'user', text: 'go on' }], logged)).toEqual(logged)
    // A row read with the history is already in the history's list (which a hook's update may have changed).
    expect(pinnedEntries([todoRow('h1', streamed, { isError: false })], logged)).toEqual(logged)
    expect(pinnedEntries([todoRow('h1', streamed, { isError: false }), todoRow('s0', [{ content: 'Running', status: 'pending' }])], logged)).toEqual(logged)
    expect(pinnedEntries([todoRow('h1', [], { isError: false }), todoRow('s1', streamed, { isError: false })], logged)).toEqual(streamed)
    expect(pinnedEntries([], [])).toEqual([])
  })
})
