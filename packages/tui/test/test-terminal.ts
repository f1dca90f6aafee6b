// A pi-tui Terminal for in-process screen tests and the render-cost bench: a fixed size, writes
// handed to `onWrite` (dropped by default), keys typed by the caller.
import type { Terminal } from '@mariozechner/pi-tui'

/** The terminal and how to type into it. */
export interface TestTerminal {
  readonly terminal: Terminal
  /** Delivers `data` as typed keys (after the TUI started). */
  readonly type: (data: string) => void
}

/** A terminal of `columns` × `rows`. */
export function testTerminal(columns = 120, rows = 40, onWrite: (data: string) => void = () => undefined): TestTerminal {
  let onInput: ((data: string) => void) | undefined
  const terminal: Terminal = {
    start: (input) => {
      onInput = input
    },
    stop: () => undefined,
    drainInput: () => Promise.resolve(),
    write: onWrite,
    columns,
    rows,
    kittyProtocolActive: false,
    moveBy: () => undefined,
    hideCursor: () => undefined,
    showCursor: () => undefined,
    clearLine: () => undefined,
    clearFromCursor: () => undefined,
    clearScreen: () => undefined,
    setTitle: () => undefined,
    setProgress: () => undefined,
  }
  return {
    terminal,
    type: (data) => {
      if (onInput === undefined) throw new Error('the TUI has not started')
      onInput(data)
    },
  }
}
