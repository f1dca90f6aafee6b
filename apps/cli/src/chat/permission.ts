/**
 * Approval of tool calls in the chat. A `tools/pre-execute` guard turns an `allow` verdict for
 * `bash` and `run_code` into `ask` (it calls `next()` first and only ever tightens), and the
 * `askPermission` callback asks the person at the terminal: `Run bash: <command>? [y/N]` or
 * `Run JavaScript (run_code): <code>? [y/N]`. Anything but yes denies; the runtime then gives the
 * model an error tool result that says the call was not approved. A snippet's own nested calls go
 * through the pipeline again, so a nested `bash` is asked about separately.
 */
import type { Context } from '@deepseek-ai/cordis'
import type { PreExecuteVerdict, ToolExecution } from '@dsh/contracts'
import type { AskPermission } from '@dsh/runtime'
import { sanitize } from './ansi.ts'
import type { LineInput } from './line-input.ts'
import type { ChatRenderer } from './renderer.ts'
import { argumentSummary, oneLine } from './tool-summary.ts'

/**
 * The tools that run arbitrary code with the user's rights, with the argument that holds the code
 * and the label of the question.
 */
const codeRunners: Readonly<Record<string, { readonly argument: string; readonly label: string }>> = {
  bash: { argument: 'command', label: 'Run bash' },
  run_code: { argument: 'code', label: 'Run JavaScript (run_code)' },
}

/** Lines of a command or snippet printed above the question; the rest is counted, not shown. */
export const maxShownLines = 40
/** Characters of one shown line; a longer line is cut with `… (+N characters)`. */
export const maxShownLineChars = 300

/** Registers the guard that makes `bash` and `run_code` calls need approval; returns its disposer. */
export function guardCodeRunners(ctx: Context): () => boolean {
  return ctx.on('tools/pre-execute', async (execution: ToolExecution, next: () => Promise<PreExecuteVerdict>): Promise<PreExecuteVerdict> => {
    const verdict = await next()
    if (!Object.hasOwn(codeRunners, execution.name) || verdict.kind !== 'allow') return verdict
    return { kind: 'ask', reason: `dsh chat asks before running ${execution.name}` }
  })
}

/** The terminal pieces the prompt needs; late-bound because the host is composed before them. */
export interface PermissionTerminal {
  readonly input: LineInput
  readonly renderer: ChatRenderer
}

function stringArgument(execution: ToolExecution, key: string): string | undefined {
  const args = execution.arguments
  if (typeof args !== 'object' || args === null || !Object.hasOwn(args, key)) return undefined
  const value: unknown = Object.getOwnPropertyDescriptor(args, key)?.value
  return typeof value === 'string' ? value : undefined
}

const cut = (line: string): string => (line.length <= maxShownLineChars ? line : `${line.slice(0, maxShownLineChars)}… (+${line.length - maxShownLineChars} characters)`)

/** The lines printed above the question: at most {@link maxShownLines}, then a marker. */
function shownLines(lines: readonly string[]): string[] {
  const shown = lines.slice(0, maxShownLines).map((line) => `  ${cut(line)}`)
  const hidden = lines.length - shown.length
  return hidden > 0 ? [...shown, `  … ${hidden} more ${hidden === 1 ? 'line' : 'lines'} not shown`] : shown
}

/**
 * The question for one call. A one-line command or snippet is part of the question; a multi-line
 * one is printed above it (the first {@link maxShownLines} lines, each cut at
 * {@link maxShownLineChars} characters, with markers for what is left out).
 */
export function permissionQuestion(execution: ToolExecution, reason: string | undefined): { readonly preamble: readonly string[]; readonly question: string } {
  const runner = Object.hasOwn(codeRunners, execution.name) ? codeRunners[execution.name] : undefined
  const code = runner === undefined ? undefined : stringArgument(execution, runner.argument)
  if (runner !== undefined && code !== undefined) {
    const lines = sanitize(code).replace(/\n+$/, '').split('\n')
    if (lines.length <= 1) return { preamble: [], question: `${runner.label}: ${cut(lines[0] ?? '')}? [y/N] ` }
    return { preamble: shownLines(lines), question: `${runner.label}: ${oneLine(lines[0] ?? '', 60)} (+${lines.length - 1} lines)? [y/N] ` }
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
