// One chat workspace and one tmux session per test, both ended after it: the tmux session first
// (dsh releases its session lock when the terminal hangs up), then the temporary tree. Call
// `tmuxChat()` once at the top of a test file.
import { afterEach } from 'vitest'
import type { TempTree } from '@dsh/testkit'
import { chatWorkspace } from './chat-steps.ts'
import { startTmux, type TmuxSession } from './tmux-session.ts'

/** What a test uses. */
export interface TmuxChat {
  /** A fresh chat workspace (chat-steps.ts), removed after the test. */
  workspace(): Promise<Awaited<ReturnType<typeof chatWorkspace>>>
  /** Starts the built dsh with `args` in tmux, ended after the test. */
  start(...args: Parameters<typeof startTmux>): Promise<TmuxSession>
}

/** Registers the clean-up and returns the two starters. */
export function tmuxChat(): TmuxChat {
  let tree: TempTree | undefined
  let tmux: TmuxSession | undefined
  afterEach(async () => {
    await tmux?.kill()
    tmux = undefined
    await tree?.dispose()
    tree = undefined
  })
  return {
    async workspace() {
      const made = await chatWorkspace()
      tree = made.tree
      return made
    },
    async start(...args) {
      tmux = await startTmux(...args)
      return tmux
    },
  }
}
