/**
 * ANSI styling for the chat, and the decision whether to use it: colour (and readline's own line
 * editing, which redraws with escape codes) only when stdout is a terminal and `NO_COLOR` is unset
 * or empty. Disabled styles return their text unchanged, so callers never branch on colour.
 */
import type { CliIo } from '../cli-io.ts'

/** Text styles; each returns its input wrapped in escape codes, or unchanged when disabled. */
export interface Styles {
  /** True when escape codes are emitted. */
  readonly enabled: boolean
  readonly dim: (text: string) => string
  readonly bold: (text: string) => string
  readonly red: (text: string) => string
  readonly green: (text: string) => string
  readonly yellow: (text: string) => string
  readonly cyan: (text: string) => string
}

const wrap =
  (enabled: boolean, open: number, close: number) =>
  (text: string): string =>
    enabled && text !== '' ? `\x1b[${open}m${text}\x1b[${close}m` : text

/** Creates the style set. */
export function createStyles(enabled: boolean): Styles {
  return {
    enabled,
    dim: wrap(enabled, 2, 22),
    bold: wrap(enabled, 1, 22),
    red: wrap(enabled, 31, 39),
    green: wrap(enabled, 32, 39),
    yellow: wrap(enabled, 33, 39),
    cyan: wrap(enabled, 36, 39),
  }
}

/** True when `NO_COLOR` asks for plain output (any non-empty value). */
export function noColorRequested(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env['NO_COLOR']
  return value !== undefined && value !== ''
}

/** True when a stream is a terminal. */
export function isTty(stream: NodeJS.ReadableStream | NodeJS.WritableStream): boolean {
  return 'isTTY' in stream && stream.isTTY === true
}

/**
 * Removes control characters (escape sequences included) from model- or tool-supplied text before
 * it is shown, so it can neither restyle the terminal nor move the cursor. Newlines and tabs stay.
 */
export function sanitize(text: string): string {
  let out = ''
  for (const char of text) {
    const code = char.charCodeAt(0)
    const control = (code < 0x20 && char !== '\n' && char !== '\t') || (code >= 0x7f && code <= 0x9f)
    if (!control) out += char
  }
  return out
}

/** The terminal mode of one invocation. */
export interface TerminalMode {
  /** ANSI styling. */
  readonly color: boolean
  /** readline line editing in raw mode (it redraws with escape codes). */
  readonly editing: boolean
  /** A person types the input: show prompts. */
  readonly interactive: boolean
}

/** Colour and editing need a terminal on both ends and no `NO_COLOR`; prompts need a terminal input. */
export function terminalMode(io: CliIo, input: NodeJS.ReadableStream): TerminalMode {
  const color = isTty(io.stdout) && !noColorRequested(io.env)
  return { color, editing: color && isTty(input), interactive: isTty(input) }
}
