/**
 * Approval of tool calls in the chat. A `tools/pre-execute` guard turns an `allow` verdict for
 * `bash` into `ask` (it calls `next()` first and only ever tightens), and the `askPermission`
 * callback asks the person at the terminal: `Run bash: <command>? [y/N]`. Anything but yes denies;
 * the runtime then gives the model an error tool result that says the call was not approved.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { PreExecuteVerdict, ToolExecution } from '@dsh/contracts'
import type { AskPermission } from '@dsh/runtime'
import { sanitize } from './ansi.ts'
import type { LineInput } from './line-input.ts'
import type { ChatRenderer } from './renderer.ts'
import { argumentSummary, oneLine } from './tool-summary.ts'

/** Registers the guard that makes `bash` calls need approval; returns its disposer. */
export function guardBash(ctx: Context): () => boolean {
  return ctx.on('tools/pre-execute', async (execution: ToolExecution, next: () => Promise<PreExecuteVerdict>): Promise<PreExecuteVerdict> => {
    const verdict = await next()
    if (execution.name !== 'bash' || verdict.kind !== 'allow') return verdict
    return { kind: 'ask', reason: 'dsh chat asks before running bash' }
  })
}

/** The terminal pieces the prompt needs; late-bound because the host is composed before them. */
export interface PermissionTerminal {
  readonly input: LineInput
  readonly renderer: ChatRenderer
}

function bashCommand(execution: ToolExecution): string | undefined {
  const args = execution.arguments
  if (typeof args !== 'object' || args === null) return undefined
  const command = (args as { command?: unknown }).command
  return typeof command === 'string' ? command : undefined
}

/** The question for one call; a multi-line command is printed in full above it. */
export function permissionQuestion(execution: ToolExecution, reason: string | undefined): { readonly preamble: readonly string[]; readonly question: string } {
  const command = execution.name === 'bash' ? bashCommand(execution) : undefined
  if (command !== undefined) {
    const lines = sanitize(command).replace(/\n+$/, '').split('\n')
    if (lines.length <= 1) return { preamble: [], question: `Run bash: ${lines[0] ?? ''}? [y/N] ` }
    return { preamble: lines.map((line) => `  ${line}`), question: `Run bash: ${oneLine(lines[0] ?? '', 60)} (+${lines.length - 1} lines)? [y/N] ` }
  }
  const summary = argumentSummary(JSON.stringify(execution.arguments ?? {}), 60)
  const why = reason === undefined ? '' : ` (${oneLine(reason, 80)})`
  return { preamble: [], question: `Allow ${sanitize(execution.name)}${summary === '' ? '' : ` ${summary}`}${why}? [y/N] ` }
}

/** True for a yes answer. */
export function isYes(answer: string | undefined): boolean {
  return answer !== undefined && /^\s*y(es)?\s*$/i.test(answer)
}

/**
 * The `askPermission` of the host. `terminal()` returns the live input and renderer; with
 * `autoApprove` (`--yes`) every ask is approved without a question.
 */
export function terminalAskPermission(terminal: () => PermissionTerminal | undefined, autoApprove: boolean): AskPermission {
  return async (execution, reason) => {
    if (autoApprove) return true
    const live = terminal()
    if (live === undefined) return false
    const { preamble, question } = permissionQuestion(execution, reason)
    live.renderer.newline()
    for (const line of preamble) live.renderer.line(line)
    const answer = await live.input.ask(live.renderer.styles.yellow(question), execution.signal)
    live.renderer.markLineStart()
    return isYes(answer)
  }
}
