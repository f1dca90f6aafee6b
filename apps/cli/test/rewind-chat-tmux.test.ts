// `/rewind` in dsh chat on a real terminal (tmux, 120×40): a turn writes a file and changes one
// with bash; `/rewind` opens the picker of turns with their files (Esc cancels, nothing changes),
// `/rewind 1` previews without changing anything, and `/rewind 1 yes` puts the files back. In the
// picker, a chosen turn shows what will change before anything is done; "Files only" restores the
// files and keeps the conversation, Cancel changes nothing. A rewind of the conversation puts the
// rewound turn's prompt back in the empty prompt for editing; a rewind of files only does not. (Esc Esc opening the picker is tested
// with an injected clock in packages/tui/test/double-escape.test.ts: no real timing here.)
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { chatArgs } from './chat-steps.ts'
import { writeScript } from './run-dsh.ts'
import { tmuxChat } from './tmux-chat.ts'

const chat = tmuxChat()

describe('/rewind on a real terminal', () => {
  it('lists, previews and rewinds', async () => {
    const w = await chat.workspace()
    const script = writeScript(w.tree.path('scripts'), 'rewind.json', {
      responses: [{ toolCalls: [{ name: 'write', arguments: { file_path: 'new.txt', content: 'made\n' } }] }, { toolCalls: [{ name: 'bash', arguments: { command: 'echo gamma >> notes.txt' } }] }, { text: 'Both done.' }],
    })
    const tmux = await chat.start(chatArgs(w, script, '--permission-mode', 'full-auto'), { cwd: w.tree.root })
    await tmux.waitFor(/Ctrl-D exits/)
    const type = async (text: string): Promise<void> => {
      await tmux.keys([text], { literal: true })
      await tmux.keys(['Enter'])
    }
    await type('change the notes')
    await tmux.waitFor(/Both done\./)
    await type('/rewind')
    await tmux.waitFor(/Rewind to before which turn\? \(newest first\)\n.*1 change the notes\s+new\.txt, notes\.txt/)
    await tmux.keys(['Escape'])
    await tmux.waitFor(/rewind cancelled: nothing changed/)
    expect(readFileSync(w.tree.path('repo/notes.txt'), 'utf8')).toBe('alpha\nbeta\ngamma\n')
    await type('/rewind 1')
    await tmux.waitFor(/a rewind to before turn 1 would change:\n\s*remove new\.txt\n\s*restore notes\.txt/)
    expect(readFileSync(w.tree.path('repo/notes.txt'), 'utf8')).toBe('alpha\nbeta\ngamma\n')
    await type('/rewind 1 yes')
    await tmux.waitFor(/rewound to before turn 1: 2 files, conversation/)
    expect(readFileSync(w.tree.path('repo/notes.txt'), 'utf8')).toBe('alpha\nbeta\n')
    expect(existsSync(w.tree.path('repo/new.txt'))).toBe(false)
    // The conversation went back too: the turn's prompt waits in the prompt box, to be edited and sent again.
    await tmux.waitFor(/─{20,}\nchange the notes\s*\n─{20,}/)
  }, 90_000)

  it('the picker shows what a rewind changes before it is done; "Files only" keeps the conversation, Cancel changes nothing', async () => {
    const w = await chat.workspace()
    const script = writeScript(w.tree.path('scripts'), 'picker.json', {
      responses: [
        { toolCalls: [{ name: 'write', arguments: { file_path: 'first.txt', content: 'one\n' } }] },
        { text: 'First written.' },
        { toolCalls: [{ name: 'bash', arguments: { command: 'echo delta >> notes.txt' } }] },
        { text: 'Notes changed.' },
        { text: 'Still here.' },
      ],
    })
    const tmux = await chat.start(chatArgs(w, script, '--permission-mode', 'full-auto'), { cwd: w.tree.root })
    await tmux.waitFor(/Ctrl-D exits/)
    const type = async (text: string): Promise<void> => {
      await tmux.keys([text], { literal: true })
      await tmux.keys(['Enter'])
    }
    await type('write the first file')
    await tmux.waitFor(/First written\./)
    await type('change the notes')
    await tmux.waitFor(/Notes changed\./)
    await type('/rewind')
    await tmux.waitFor(/Rewind to before which turn\? \(newest first\)\n→ 2 change the notes\s+notes\.txt\n {2}1 write the first file\s+first\.txt/)
    // Turn 2 is first (newest first): choose it and see the preview, then cancel.
    await tmux.keys(['Enter'])
    await tmux.waitFor(/Rewind to before turn 2\?\na rewind to before turn 2 would change:\n\s+restore notes\.txt\n\s+the conversation from turn 2 on \(\d+ messages leave the model's view\)\n[\s\S]*Rewind files and conversation[\s\S]*Files only[\s\S]*Conversation only[\s\S]*Cancel/)
    await tmux.keys(['Up'])
    await tmux.keys(['Enter'])
    await tmux.waitFor(/rewind cancelled: nothing changed/)
    expect(readFileSync(w.tree.path('repo/notes.txt'), 'utf8')).toBe('alpha\nbeta\ndelta\n')
    // Now turn 1, files only: both files go back, the conversation stays.
    await type('/rewind')
    await tmux.waitFor(/Rewind to before which turn\?/)
    await tmux.keys(['Down'])
    await tmux.keys(['Enter'])
    await tmux.waitFor(/Rewind to before turn 1\?\na rewind to before turn 1 would change:\n\s+remove first\.txt\n\s+restore notes\.txt/)
    await tmux.keys(['Down'])
    await tmux.keys(['Enter'])
    await tmux.waitFor(/rewound to before turn 1: 2 files\n/)
    expect(readFileSync(w.tree.path('repo/notes.txt'), 'utf8')).toBe('alpha\nbeta\n')
    expect(existsSync(w.tree.path('repo/first.txt'))).toBe(false)
    const screen = (await tmux.screen()).join('\n')
    expect(screen).not.toMatch(/rewound to before turn 1: 2 files, conversation/)
    // The conversation stayed: the prompt box stays empty.
    expect(screen).toMatch(/─{20,}\n\s*\n─{20,}/)
    await type('are you there?')
    await tmux.waitFor(/Still here\./)
  }, 90_000)
})
