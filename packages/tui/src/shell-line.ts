/**
 * `!command` lines of the chat (as in Claude Code's and Codex's prompts): the person runs a shell
 * command themselves, sees its output, and the model gets command and output right after the
 * next prompt, as context the person gave (`source: plugin "shell"`, form `notice`). The command is
 * the person's, not the agent's: it runs as they would run it in their terminal (the CLI's
 * runner), not through the agent's permission policy or sandbox.
 */
import type { UserMessage } from '@dsh/contracts'
import { createUserMessage } from '@dsh/runtime'

/** What a runner reports. */
export interface ShellOutcome {
  /** stdout and stderr as they arrived, at most the runner's cap. */
  readonly output: string
  /** The exit code, or null when a signal ended the command. */
  readonly exitCode: number | null
  /** The signal that ended it (`SIGINT` after Ctrl-C, `SIGKILL` at the time limit), if any. */
  readonly signal?: string | undefined
  /** True when output beyond the cap was left out. */
  readonly truncated: boolean
}

/** Runs a person's command in `cwd`; `signal` aborts it (the process and its children end). Must not reject for a failing command. */
export type ShellRunner = (command: string, options: { readonly cwd: string; readonly signal: AbortSignal }) => Promise<ShellOutcome>

/** The command of a `!` line, or undefined for any other line (`!` alone is no command). */
export function shellCommand(line: string): string | undefined {
  if (!line.startsWith('!')) return undefined
  const command = line.slice(1).trim()
  return command === '' ? undefined : command
}

/** How the outcome ends, in words (`exit code 0`, `ended by SIGINT`). */
export function outcomeWords(outcome: ShellOutcome): string {
  return outcome.exitCode === null ? `ended by ${outcome.signal ?? 'a signal'}` : `exit code ${outcome.exitCode}`
}

/** The message the model gets with the next prompt (README "What the model sees"). */
export function shellContext(options: { readonly cwd: string; readonly command: string; readonly outcome: ShellOutcome }): UserMessage {
  const { outcome } = options
  const body = outcome.output === '' ? '(no output)' : outcome.output.replace(/\n$/, '')
  const text = [
    `The user ran this shell command themselves in ${options.cwd} (not a tool call of yours):`,
    `$ ${options.command}`,
    body,
    ...(outcome.truncated ? ['[output cut: only its beginning is shown]'] : []),
    `[${outcomeWords(outcome)}]`,
  ].join('\n')
  return createUserMessage({ text, source: { kind: 'plugin', plugin: 'shell', form: 'notice' } })
}
