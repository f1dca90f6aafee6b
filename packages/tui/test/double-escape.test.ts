// Esc Esc at an idle empty prompt opens the rewind picker, through the chat's key listener with an
// injected clock: two Esc within the window open it once, a slower second Esc only arms again,
// and an Esc while a step runs (or with text typed) never does.
import { describe, expect, it } from 'vitest'
import { bindKeys, type KeyTargets } from '../src/screen/key-bindings.ts'
import { rewindWindowMs } from '../src/interrupt-policy.ts'

type Listener = (data: string) => { consume?: boolean } | undefined

function rig(state: { busy: boolean; text: string }) {
  let listener: Listener | undefined
  let clock = 0
  let opened = 0
  const layout = {
    tui: {
      addInputListener: (fn: Listener) => {
        listener = fn
        return () => undefined
      },
      requestRender: () => undefined,
    },
    editor: { getText: () => state.text, setText: (text: string) => (state.text = text), isShowingAutocomplete: () => false },
    modalOpen: false,
    setHint: () => undefined,
  }
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- the listener uses only these members of pi-tui's screen and editor
  const targets = { layout, view: { toggleLastTool: () => false, toggleReasoning: () => undefined }, controller: { busy: state.busy, cancel: () => [], exit: () => undefined }, now: () => clock, openRewind: () => (opened += 1) } as unknown as KeyTargets
  const remove = bindKeys(targets)
  return {
    press: (gap: number) => {
      clock += gap
      listener?.('\x1b')
    },
    opened: () => opened,
    remove,
  }
}

describe('Esc Esc', () => {
  it('opens the rewind picker on a second Esc within the window, at an idle empty prompt only', () => {
    const idle = rig({ busy: false, text: '' })
    idle.press(0)
    expect(idle.opened()).toBe(0)
    idle.press(rewindWindowMs)
    expect(idle.opened()).toBe(1)
    idle.press(10)
    idle.press(rewindWindowMs + 1)
    expect(idle.opened()).toBe(1)
    idle.press(5)
    expect(idle.opened()).toBe(2)
    idle.remove()
    const busy = rig({ busy: true, text: '' })
    busy.press(0)
    busy.press(1)
    expect(busy.opened()).toBe(0)
    busy.remove()
    const typed = rig({ busy: false, text: 'half a line' })
    typed.press(0)
    typed.press(1)
    // The first Esc cleared the line; only the next two at the empty prompt open the picker.
    expect(typed.opened()).toBe(0)
    typed.press(1)
    expect(typed.opened()).toBe(1)
    typed.remove()
  })
})
