/**
 * The process surroundings a command needs, passed in rather than read from globals.
 */
import { terminalLine } from '@dsh/workspace-context'

/** Streams, environment and working directory of one invocation. */
export interface CliIo {
  /** Input (`dsh run -` and piped prompts); absent means no input, as from a terminal. */
  readonly stdin?: NodeJS.ReadableStream & { readonly isTTY?: boolean }
  /** Answer output. */
  readonly stdout: NodeJS.WritableStream
  /** Diagnostics (session ids, warnings, errors). */
  readonly stderr: NodeJS.WritableStream
  /** Environment variables. */
  readonly env: Readonly<Record<string, string | undefined>>
  /** Directory the command was started in. */
  readonly cwd: string
}

/**
 * Writes one diagnostic line, terminal-safe: errors and warnings quote session files, server
 * answers and repository text, so every control character (an escape sequence, a newline) is
 * shown visibly instead of acting on the terminal or breaking the line.
 */
export function errLine(io: CliIo, line: string): void {
  io.stderr.write(`${terminalLine(line)}\n`)
}
