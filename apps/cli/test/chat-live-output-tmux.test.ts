// A running command's output streams into its row in the real chat (tmux, 120×40, the built
// binary): the first line is on screen while the command still runs (it waits for a file the test
// writes only after seeing that line), and when it ends the row collapses to its summary.
import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { chatArgs } from './chat-steps.ts'
import { writeScript } from './run-dsh.ts'
import { tmuxChat } from './tmux-chat.ts'

const chat = tmuxChat()

describe('live tool output in the chat', () => {
  it('shows what the command printed so far under its running row, then only the summary', async () => {
    const w = await chat.workspace()
    const command = 'echo tick-1; while [ ! -e go ]; do sleep 0.05; done; echo tick-2'
    const script = writeScript(w.tree.path('scripts'), 'live.json', { responses: [{ toolCalls: [{ name: 'bash', arguments: { command } }] }, { text: 'Both ticks printed.' }] })
    const tmux = await chat.start(chatArgs(w, script, '--yes'), { cwd: w.tree.root })
    await tmux.waitFor(/Ctrl-D exits/)
    await tmux.keys(['tick'], { literal: true })
    await tmux.keys(['Enter'])
    const running = (await tmux.waitFor(/│ tick-1/)).join('\n')
    expect(running).toMatch(/bash echo tick-1; while[^\n]*\n\s+│ tick-1/)
    expect(running).not.toContain('│ tick-2')
    writeFileSync(w.tree.path('repo/go'), '')
    const done = (await tmux.waitFor(/Both ticks printed\./)).join('\n')
    expect(done).toMatch(/✓ bash echo tick-1/)
    expect(done).not.toContain('│ tick-1')
  }, 90_000)
})
