// `dsh` with no command on a real terminal (tmux) opens the chat, as `claude` and `codex` do:
// `dsh --model … "several words"` sends them as the first message. (A single unknown word stays an
// unknown command: interactive-alias.test.ts; its error line: usage.test.ts.)
import { describe, it } from 'vitest'
import { writeScript } from './run-dsh.ts'
import { tmuxChat } from './tmux-chat.ts'

const chat = tmuxChat()

describe('dsh without a command in a terminal', () => {
  it('is the chat, with a prompt of several words as its first message', async () => {
    const w = await chat.workspace()
    const script = writeScript(w.tree.path('scripts'), 'bare.json', { responses: [{ text: 'Hello from the chat.' }] })
    const tmux = await chat.start(['--dsh-home', w.home, '--cwd', w.repo, '--model', `scripted:${script}`, 'say hello please'], { cwd: w.tree.root })
    await tmux.waitFor(/› say hello please\n[\s\S]*Hello from the chat\./)
    await tmux.waitFor(/Ctrl-D exits/)
  }, 60_000)

})
