// The pinned checklist's text: the progress line and the unfinished items (five at most, then a
// count of the rest), nothing once everything is done; and the list a replayed history ends with
// (a failed todo_write does not count).
import { visibleWidth } from '@mariozechner/pi-tui'
import { describe, expect, it } from 'vitest'
import type { Message } from '@dsh/contracts'
import type { TodoItem } from '@dsh/todo'
import { lastTodos, PinnedTodos } from '../src/screen/pinned-todos.ts'
import { createTheme } from '../src/theme.ts'

const theme = createTheme({ color: false, attributes: false })
const item = (content: string, status: TodoItem['status']): TodoItem => ({ content, status })
const pinned = (items: readonly TodoItem[], width = 80): string[] => {
  const block = new PinnedTodos(theme)
  block.set(items)
  return block.render(width)
}

describe('the pinned checklist', () => {
  it('shows the progress and the unfinished items, in order', () => {
    expect(pinned([item('Read the test', 'completed'), item('Fix the parser', 'in_progress'), item('Run the suite', 'pending')])).toEqual(['', 'checklist: 1 of 3 completed', '  ▸ Fix the parser', '  ○ Run the suite'])
  })

  it('shows five unfinished items at most and counts the rest; nothing when all are done or there is no list', () => {
    const many = Array.from({ length: 8 }, (_, index) => item(`Step ${index + 1}`, index === 0 ? 'in_progress' : 'pending'))
    expect(pinned(many)).toEqual(['', 'checklist: 0 of 8 completed', '  ▸ Step 1', '  ○ Step 2', '  ○ Step 3', '  ○ Step 4', '  ○ Step 5', '  … 3 more'])
    expect(pinned([item('Done', 'completed')])).toEqual([])
    expect(pinned([])).toEqual([])
  })

  it('cuts every line to the width', () => {
    expect(pinned([item('A very long item that does not fit in twenty columns', 'pending')], 20).map((line) => visibleWidth(line))).toEqual([0, 20, 20])
  })
})

const call = (id: string, todos: readonly TodoItem[]): Message => ({ id: `a${id}`, role: 'assistant', content: [{ type: 'tool-call', callId: id, name: 'todo_write', arguments: JSON.stringify({ todos }) }], source: { kind: 'model' } })
const result = (id: string, isError: boolean): Message => ({ id: `t${id}`, role: 'tool', callId: id, toolName: 'todo_write', isError, content: [{ type: 'text', text: isError ? 'refused' : 'Todo list updated' }], source: { kind: 'tool' } })

describe('the checklist of a replayed history', () => {
  it('is the last todo_write that succeeded', () => {
    const first = [item('One', 'in_progress')]
    const refused = [item('Two', 'in_progress'), item('Three', 'in_progress')]
    expect(lastTodos([call('c1', first), result('c1', false), call('c2', refused), result('c2', true)])).toEqual(first)
    expect(lastTodos([{ id: 'u1', role: 'user', content: [{ type: 'text', text: 'hi' }], source: { kind: 'user' } }])).toBeUndefined()
  })
})
