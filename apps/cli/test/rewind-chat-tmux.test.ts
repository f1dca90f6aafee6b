// `/rewind` in dsh chat on a real terminal (tmux, 120×40): a turn writes a file and changes one
// with bash; `/rewind` lists it with its files, `/rewind 1` previews without changing anything, and
// `/rewind 1 yes` puts the files back.
import { existsSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { TempTree } from '@dsh/testkit'
import { chatArgs, chatWorkspace } from './chat-steps.ts'
import { writeScript } from './run-dsh.ts'
import { startTmux, type TmuxSession } from './tmux-session.ts'

let tree: TempTree | undefined
let tmux: TmuxSession | undefined
afterEach(async () => {
  await tmux?.kill()
  tmux = undefined
  await tree?.dispose()
  tree = undefined
})

describe('/rewind on a real terminal', () => {
  it('lists, previews and rewinds', async () => {
    const w = await chatWorkspace()
    tree = w.tree
    const script = writeScript(w.tree.path('scripts'), 'rewind.json', {
      responses: [{ toolCalls: [{ name: 'write', arguments: { file_path: 'new.txt', content: 'made\n' } }] }, { toolCalls: [{ name: 'bash', arguments: { command: 'echo gamma >> notes.txt' } }] }, { text: 'Both done.' }],
    })
    tmux = await startTmux(chatArgs(w, script, '--permission-mode', 'full-auto'), { cwd: w.tree.root })
    await tmux.waitFor(/Ctrl-D exits/)
    const type = async (text: string): Promise<void> => {
      await tmux?.keys([text], { literal: true })
      await tmux?.keys(['Enter'])
    }
    await type('change the notes')
    await tmux.waitFor(/Both done\./)
    await type('/rewind')
    await tmux.waitFor(/1 {2}change the notes {2}\(new\.txt, notes\.txt\)/)
    await type('/rewind 1')
    await tmux.waitFor(/a rewind to before turn 1 would change:\n\s*remove new\.txt\n\s*restore notes\.txt/)
    expect(readFileSync(w.tree.path('repo/notes.txt'), 'utf8')).toBe('alpha\nbeta\ngamma\n')
    await type('/rewind 1 yes')
    await tmux.waitFor(/rewound to before turn 1: 2 files, conversation/)
    expect(readFileSync(w.tree.path('repo/notes.txt'), 'utf8')).toBe('alpha\nbeta\n')
    expect(existsSync(w.tree.path('repo/new.txt'))).toBe(false)
  }, 90_000)
})
