// The pinned checklist's text: the progress line and the unfinished items (five at most, then a
// count of the rest), nothing once everything is done; and a replayed session pins the list it holds.
import { Container, visibleWidth } from '@mariozechner/pi-tui'
import { describe, expect, it } from 'vitest'
import type { Message } from '@dsh/contracts'
import type { TodoItem } from '@dsh/todo'
import { PinnedTodos } from '../src/screen/pinned-todos.ts'
import { ScreenView } from '../src/screen/screen-view.ts'
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

describe('the checklist of a replayed session', () => {
  it('is the list the session holds (even when no todo_write is visible any more), pinned while the next turn runs', () => {
    const list = [item('Find the bug', 'in_progress'), item('Fix it', 'pending')]
    const shown: (readonly TodoItem[])[] = []
    const view = new ScreenView({ transcript: new Container(), theme, now: () => 0, cwd: () => '/', requestRender: () => undefined, statusChanged: () => undefined, queueChanged: () => undefined, restoreDraft: () => undefined, pickSession: () => Promise.resolve(undefined), choose: () => Promise.resolve(undefined), todosChanged: (items) => shown.push(items) })
    // A compacted history: the summary only, the checklist in the session's todo fold.
    const summary: Message = { id: 'c', role: 'user', content: [{ type: 'text', text: 'Summary of the conversation so far.' }], source: { kind: 'compaction', checkpointId: 'k1', summarizer: 'model' } }
    view.replay([summary], list)
    expect(shown).toEqual([])
    view.progress({ type: 'step-start', turn: 2, step: 1 })
    view.progress({ type: 'turn-end', turn: 2, reason: 'completed' })
    expect(shown).toEqual([list, []])
  })
})
