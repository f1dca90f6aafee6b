/**
 * Which front end a `dsh chat` invocation gets: the full-screen terminal UI when both stdin and
 * stdout are terminals and `TERM` is not `dumb`; otherwise the plain line mode (pipes, dumb
 * terminals, CI logs), which writes no escape codes at all. `NO_COLOR` (any non-empty value) only
 * removes colour: the full-screen UI and its editing keep working.
 */

/** The mode of one invocation. */
export interface TerminalMode {
  /** `screen`: the pi-tui interface; `plain`: line in, lines out, no escape codes. */
  readonly kind: 'screen' | 'plain'
  /** Colour codes allowed. */
  readonly color: boolean
  /** A person types at a terminal (prompts are shown; failures do not change the exit code). */
  readonly interactive: boolean
}

/** True when `NO_COLOR` asks for no colour (any non-empty value). */
export function noColorRequested(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env['NO_COLOR']
  return value !== undefined && value !== ''
}

/** True when a stream is a terminal. */
export function isTty(stream: NodeJS.ReadableStream | NodeJS.WritableStream): boolean {
  return 'isTTY' in stream && stream.isTTY === true
}

/** Decides the mode from the streams and the environment. */
export function terminalMode(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, env: Readonly<Record<string, string | undefined>>): TerminalMode {
  const dumb = (env['TERM'] ?? '') === 'dumb'
  const screen = isTty(input) && isTty(output) && !dumb
  return { kind: screen ? 'screen' : 'plain', color: screen && !noColorRequested(env), interactive: isTty(input) }
}
