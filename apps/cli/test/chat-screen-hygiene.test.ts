// The full-screen chat's transcript stays readable: the host's diagnostics (here the automatic
// compaction notices) show in the transcript instead of being written over the screen behind
// pi-tui's back, and slash commands are echoed with their output under them. The built binary in
// a real pseudo-terminal, whose stderr is the terminal too.
import { afterEach, describe, expect, it } from 'vitest'
import type { TempTree } from '@dsh/testkit'
import { runPty } from './chat-harness.ts'
import { chatArgs, chatWorkspace, ctrlD, finalScreen, golden, ready, say } from './chat-steps.ts'
import { writeScript } from './run-dsh.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

describe('the full-screen chat keeps its screen to itself', () => {
  it('diagnostics while the screen draws (automatic compaction notices) show in the transcript, and the status line stays single', async () => {
    const w = await chatWorkspace()
    tree = w.tree
    await w.tree.write({ 'dsh.yaml': 'model:\n  autoCompactShare: 0.001\n' })
    const script = writeScript(w.tree.path('scripts'), 'compact.json', { responses: [{ text: 'first answer' }] })
    const result = await runPty(chatArgs(w, script, '--config', w.tree.path('dsh.yaml')), [ready, ...say('one'), { expect: 'first answer' }, { sleep: 0.4 }, ctrlD, { exit: 0 }], { cwd: w.tree.root })
    const screen = await finalScreen(result.transcript, { [w.repo]: '<repo>', [w.tree.path('scripts')]: '<scripts>' })
    expect(screen).toMatch(/› one\nautomatic compaction: the request passed 0% of the 128000-token window, but compacting now would free too little;\ncontinuing without it\n\nfirst answer\n/)
    expect(screen.split('\n').filter((line) => line.startsWith('scripted:<scripts>/compact.json · ~/repo'))).toHaveLength(1)
  })

  it('slash commands are echoed, each output sits under its command, and /help lines every command up (golden screen)', async () => {
    const w = await chatWorkspace()
    tree = w.tree
    const script = writeScript(w.tree.path('scripts'), 'none.json', { responses: [] })
    const result = await runPty(chatArgs(w, script), [ready, ...say('/model'), { expect: 'model: scripted' }, ...say('/help'), { expect: 'with your next prompt' }, { sleep: 0.3 }, ctrlD, { exit: 0 }], { cwd: w.tree.root })
    const screen = await finalScreen(result.transcript, { [w.repo]: '<repo>', [w.tree.path('scripts')]: '<scripts>' })
    expect(screen).toBe(golden('chat-slash-echo.txt', screen))
  })
})
