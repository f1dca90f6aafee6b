// The model's checklist pinned above the status line in dsh chat on a real terminal (tmux): after
// a todo_write, while the turn goes on (the scripted answer holds until a file exists), the
// unfinished items stay in sight under the transcript with the progress line; when the turn ends
// the pinned lines go and the checklist under the todo_write row stays.
import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { writeScript } from './run-dsh.ts'
import { tmuxChat } from './tmux-chat.ts'

const chat = tmuxChat()

const todos = [
  { content: 'Read the failing test', status: 'completed' },
  { content: 'Fix the parser', status: 'in_progress' },
  { content: 'Run the suite', status: 'pending' },
]

describe('the pinned checklist', () => {
  it('shows the unfinished items while the turn runs, and nothing pinned after it', async () => {
    const w = await chat.workspace()
    const release = w.tree.path('release')
    const script = writeScript(w.tree.path('scripts'), 'todos.json', { responses: [{ toolCalls: [{ name: 'todo_write', arguments: { todos } }] }, { text: 'Working on the parser. Done.', holdAfter: 1, releaseFile: release }] })
    const tmux = await chat.start(['--dsh-home', w.home, 'chat', '--cwd', w.repo, '--model', `scripted:${script}`], { cwd: w.tree.root })
    await tmux.waitFor(/Ctrl-D exits/)
    await tmux.keys(['fix the parser'], { literal: true })
    await tmux.keys(['Enter'])
    const running = (await tmux.waitFor(/checklist: 1 of 3 completed\n +▸ Fix the parser\n +○ Run the suite\n/)).join('\n')
    // Pinned: the unfinished items only, below the row's own checklist (which lists all three).
    expect(running.match(/Read the failing test/g)).toHaveLength(1)
    writeFileSync(release, '')
    // The answer ends the turn; the screen then has it and no pinned progress line.
    const after = (await tmux.waitFor(/^(?![\s\S]*checklist: 1 of 3)[\s\S]*Done\./)).join('\n')
    expect(after).toContain('✔ Read the failing test')
    expect(after).toContain('▸ Fix the parser')
  }, 60_000)
})
