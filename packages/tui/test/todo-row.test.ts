// A todo_write call in the terminal: the row names the tool and its progress, and the checklist
// sits under it once the call succeeded (done items dim green, the current one bold cyan); a
// refused call shows no checklist. The plain mode prints the same lines without colour.
import { describe, expect, it } from 'vitest'
import type { ToolFinalOutcome } from '@dsh/contracts'
import { ToolRow } from '../src/screen/tool-row.ts'
import { todoPlainLines } from '../src/screen/todo-block.ts'
import { createTheme } from '../src/theme.ts'

const todos = [
  { content: 'Read the failing test', status: 'completed' },
  { content: 'Fix the parser', status: 'in_progress' },
  { content: 'Run the suite', status: 'pending' },
] as const
const rawArguments = JSON.stringify({ todos })
const outcome = (isError: boolean, content: string): ToolFinalOutcome => ({ isError, content, touched: [], additionalContexts: [], status: isError ? 'failed' : 'ok', meta: { todos } })

describe('the todo_write row', () => {
  it('shows the checklist under a successful call', () => {
    const row = new ToolRow({ callId: 'c1', name: 'todo_write', rawArguments, theme: createTheme({ color: false, attributes: false }), now: () => 0 })
    row.finish(outcome(false, 'Todo list updated: 1 of 3 completed.\n[x] Read the failing test\n[>] Fix the parser\n[ ] Run the suite\nCarry on with: Fix the parser'), undefined)
    expect(row.render(80)).toEqual(['✓ todo_write  1 of 3 completed', '    ✔ Read the failing test', '    ▸ Fix the parser', '    ○ Run the suite'])
  })

  it('colours the items by status', () => {
    const row = new ToolRow({ callId: 'c1', name: 'todo_write', rawArguments, theme: createTheme({ color: true, attributes: true }), now: () => 0 })
    row.finish(outcome(false, 'Todo list updated: 1 of 3 completed.'), undefined)
    const [, done, current, pending] = row.render(80)
    expect(done).toBe('    \x1b[2m\x1b[32m✔ Read the failing test\x1b[39m\x1b[22m')
    expect(current).toBe('    \x1b[1m\x1b[36m▸ Fix the parser\x1b[39m\x1b[22m')
    expect(pending).toBe('    ○ Run the suite')
  })

  it('shows no checklist for a refused call, and the plain lines read the same', () => {
    const row = new ToolRow({ callId: 'c1', name: 'todo_write', rawArguments, theme: createTheme({ color: false, attributes: false }), now: () => 0 })
    row.finish(outcome(true, 'Only one item may be in_progress at a time, and 2 are: "A", "B".'), undefined)
    expect(row.render(80)).toHaveLength(1)
    expect(todoPlainLines(todos)).toEqual(['  ✔ Read the failing test', '  ▸ Fix the parser', '  ○ Run the suite'])
  })
})
