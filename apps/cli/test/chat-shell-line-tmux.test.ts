// A `!command` in the full-screen chat (tmux, the built binary): its output shows under the line,
// and Ctrl-C while it runs ends the command's whole process group at once, said as `[ended by
// SIGINT]`; the chat goes on.
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { chatArgs } from './chat-steps.ts'
import { writeScript } from './run-dsh.ts'
import { tmuxChat } from './tmux-chat.ts'

const chat = tmuxChat()

/** True while some process's command line is `sleep SECONDS` (read from /proc: no pgrep needed). */
function sleeping(seconds: string): boolean {
  return readdirSync('/proc').some((pid) => {
    if (!/^\d+$/.test(pid)) return false
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8') === `sleep\u0000${seconds}\u0000`
    } catch {
      // The process ended while the list was read: it is not sleeping.
      return false
    }
  })
}

describe('! lines on a real terminal', () => {
  it('show the output, and Ctrl-C ends a running command', async () => {
    const w = await chat.workspace()
    const script = writeScript(w.tree.path('scripts'), 'shell.json', { responses: [{ text: 'Still here.' }] })
    const tmux = await chat.start(chatArgs(w, script), { cwd: w.tree.root })
    await tmux.waitFor(/Ctrl-D exits/)
    await tmux.keys(['!echo first-$((40+2))'], { literal: true })
    await tmux.keys(['Enter'])
    await tmux.waitFor(/› !echo first-\$\(\(40\+2\)\)\nfirst-42\n\[exit code 0\]/)
    // A background child too: the group ends, not only the shell.
    await tmux.keys(['!sleep 61.734 & sleep 60; echo never'], { literal: true })
    await tmux.keys(['Enter'])
    await tmux.waitFor(/› !sleep 61\.734 & sleep 60; echo never/)
    await tmux.keys(['C-c'])
    await tmux.waitFor(/\[ended by SIGINT\]/)
    await expect.poll(() => sleeping('61.734'), { timeout: 10_000 }).toBe(false)
    await tmux.keys(['are you there?'], { literal: true })
    await tmux.keys(['Enter'])
    await tmux.waitFor(/Still here\./)
  }, 60_000)
})
