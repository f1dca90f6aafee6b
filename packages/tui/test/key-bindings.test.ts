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

function screen(writes: string[] = []) {
  const { terminal, type } = testTerminal(120, 40, (data) => void writes.push(data))
  const theme = createTheme({ color: false, attributes: false })
  const layout = new ScreenLayout({ theme, now: Date.now, banner: { version: 't', model: 'm', cwd: '~', approvals: 'ask' }, status: { model: 'm', cwd: '~', roots: 0, approvals: 'ask', sessionId: 's' }, terminal })
  const exits: number[] = []
  const controller = { busy: false, cancel: () => [], exit: (code?: number) => void exits.push(code ?? 0) }
  const unbind = bindKeys({ layout, view: { toggleLastTool: () => false, toggleReasoning: () => undefined }, controller, now: Date.now })
  layout.tui.start()
  const shown = (): boolean => layout.tui.render(120).includes(exitHint)
  return { type, exits, shown, text: () => layout.editor.getText(), stop: () => (unbind(), layout.tui.stop()) }
}

/** Lets a requested frame be drawn: pi-tui asks on the next tick, then draws on a (fake) timer. */
async function frame(): Promise<void> {
  await new Promise((resolve) => process.nextTick(resolve))
  vi.advanceTimersByTime(100)
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

describe('clearing the input', () => {
  for (const [key, name] of [['\x1b', 'Esc'], ['\x03', 'Ctrl-C']] as const) {
    it(`${name} takes a draft off the screen at once, not at the next key`, async () => {
      const writes: string[] = []
      const chat = screen(writes)
      chat.type('draft to drop')
      await frame()
      expect(writes.join('')).toContain('draft to drop')
      writes.length = 0
      chat.type(key)
      await frame()
      expect(chat.text()).toBe('')
      // Something was drawn: the line that showed the draft was redrawn without it.
      expect(writes.join('')).not.toBe('')
      chat.stop()
    })
  }
})
