// The chat's keys on the real screen layout (a test terminal, a pinned clock): the exit hint
// after a first Ctrl-C at an idle prompt lasts exactly as long as the window it describes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { exitWindowMs } from '../src/interrupt-policy.ts'
import { bindKeys, exitHint } from '../src/screen/key-bindings.ts'
import { ScreenLayout } from '../src/screen/screen-layout.ts'
import { createTheme } from '../src/theme.ts'
import { testTerminal } from './test-terminal.ts'

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

function screen() {
  const { terminal, type } = testTerminal()
  const theme = createTheme({ color: false, attributes: false })
  const layout = new ScreenLayout({ theme, now: Date.now, banner: { version: 't', model: 'm', cwd: '~', approvals: 'ask' }, status: { model: 'm', cwd: '~', roots: 0, approvals: 'ask', sessionId: 's' }, terminal })
  const exits: number[] = []
  const controller = { busy: false, cancel: () => [], exit: (code?: number) => void exits.push(code ?? 0) }
  const unbind = bindKeys({ layout, view: { toggleLastTool: () => false, toggleReasoning: () => undefined }, controller, now: Date.now })
  layout.tui.start()
  const shown = (): boolean => layout.tui.render(120).includes(exitHint)
  return { type, exits, shown, stop: () => (unbind(), layout.tui.stop()) }
}

describe('the exit hint', () => {
  it('shows after a first Ctrl-C and goes when the window closes; a Ctrl-C after that arms again instead of exiting', () => {
    const chat = screen()
    chat.type('\x03')
    expect(chat.shown()).toBe(true)
    vi.advanceTimersByTime(exitWindowMs - 100)
    expect(chat.shown()).toBe(true)
    vi.advanceTimersByTime(200)
    expect(chat.shown()).toBe(false)
    chat.type('\x03')
    expect({ shown: chat.shown(), exits: chat.exits }).toEqual({ shown: true, exits: [] })
    chat.type('\x03')
    expect(chat.exits).toEqual([130])
    chat.stop()
  })
})
