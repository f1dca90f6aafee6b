// Switching sessions in the full-screen chat (the built binary in a real pseudo-terminal whose
// stderr is the terminal too): /new then /resume redraw without stale lines and name the
// session on screen; the pickers offer only sessions worth resuming, and say so when there are
// none.
import { afterEach, describe, expect, it } from 'vitest'
import type { TempTree } from '@dsh/testkit'
import { plainText, runDshPiped, runPty } from './chat-harness.ts'
import { chatArgs, chatWorkspace, ctrlC, ctrlD, enter, finalScreen, golden, ready, say } from './chat-steps.ts'
import { writeScript } from './run-dsh.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

describe('switching sessions in the full-screen chat', () => {
  it('/new then /resume redraw without stale lines and name the resumed session (golden screen)', async () => {
    const w = await chatWorkspace()
    tree = w.tree
    const script = writeScript(w.tree.path('scripts'), 'two.json', { responses: [{ text: 'first answer' }] })
    const result = await runPty(
      chatArgs(w, script),
      [ready, ...say('hello one'), { expect: 'first answer' }, ...say('/new'), { expect: 'the previous one' }, { sleep: 0.3 }, ...say('/resume'), { expect: 'Resume a session' }, { sleep: 0.3 }, { send: 'hello' }, { sleep: 0.3 }, enter, { expect: 'resumed session' }, { sleep: 0.4 }, ctrlD, { exit: 0 }],
      { cwd: w.tree.root },
    )
    const screen = await finalScreen(result.transcript, { [w.repo]: '<repo>', [w.tree.path('scripts')]: '<scripts>' })
    expect(screen).toBe(golden('chat-new-resume.txt', screen))
  })

  it('--resume with nothing to resume starts a new session and says so; /resume there has no other session to offer', async () => {
    const w = await chatWorkspace()
    tree = w.tree
    const script = writeScript(w.tree.path('scripts'), 'none.json', { responses: [] })
    const result = await runPty(chatArgs(w, script, '--resume'), [ready, { expect: 'no earlier session to resume; starting a new one' }, ...say('/resume'), { expect: 'no other session with a turn to resume' }, { sleep: 0.2 }, ctrlD, { exit: 0 }], { cwd: w.tree.root })
    expect(plainText(result.transcript)).toMatch(/resume with: dsh chat --resume \S+/)
  })

  it('Ctrl-C closes the /resume picker like Esc; two more at the idle prompt exit', async () => {
    const w = await chatWorkspace()
    tree = w.tree
    const earlier = writeScript(w.tree.path('scripts'), 'earlier.json', { responses: [{ text: 'earlier answer' }] })
    await runDshPiped(chatArgs(w, earlier), 'an earlier question\n', { cwd: w.tree.root })
    const result = await runPty(chatArgs(w, earlier), [ready, ...say('/resume'), { expect: 'an earlier question' }, { sleep: 0.3 }, ctrlC, { expect: 'no session chosen' }, ctrlC, { expect: 'press Ctrl-C again' }, ctrlC, { exit: 130 }], { cwd: w.tree.root })
    expect(plainText(result.transcript)).toMatch(/resume with: dsh chat --resume \S+/)
  })
})
