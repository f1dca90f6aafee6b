/**
 * The process surroundings a command needs, passed in rather than read from globals.
 */
import { terminalLine } from '@dsh/workspace-context'
import type { StdinKind } from './stdin-text.ts'

/** Streams, environment and working directory of one invocation. */
export interface CliIo {
  /** Input (`dsh run -` and piped prompts); absent means no input, as from a terminal. */
  readonly stdin?: NodeJS.ReadableStream & { readonly isTTY?: boolean }
  /** What stdin is (the process's fd 0); without it a stream that is not a TTY counts as a pipe. */
  readonly stdinKind?: () => StdinKind
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
