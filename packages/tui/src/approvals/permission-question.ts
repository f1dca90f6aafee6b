/**
 * The permission question for one tool call, independent of how it is shown: a title (`Run bash:
 * npm test`), the code or arguments to show above it (cut to a bounded size, sanitised), and the
 * answers on offer — once, always for a command prefix (simple `bash` commands), always for the
 * tool, reject with a note for the model, reject.
 */
import type { PermissionDecision, ToolExecution } from '@dsh/contracts'
import { suggestedPrefix } from '@dsh/runtime'
import { oneLine, sanitize } from '../text-safety.ts'
import { argumentSummary } from '../tool-summary.ts'

/** Lines of a command or snippet shown with the question; the rest is counted, not shown. */
export const maxShownLines = 40
/** Characters of one shown line; a longer line is cut with `… (+N characters)`. */
export const maxShownLineChars = 300

/** One answer on offer. `note` answers ask for the note before they are final. */
export interface PermissionOption {
  readonly label: string
  readonly decision: PermissionDecision
  /** True when the person types a note for the model first. */
  readonly withNote?: boolean
  /** Key that picks it in the plain mode (`y`, `a`, `t`, `n`). */
  readonly key: string
}

/** A question ready to show. */
export interface PermissionQuestion {
  readonly title: string
  /** The first lines of a multi-line command or snippet (then `… N more lines not shown` past {@link maxShownLines}); empty otherwise. */
  readonly detail: readonly string[]
  /** How many lines the command or snippet in `detail` has in all (0 without detail). */
  readonly detailLines: number
  readonly options: readonly PermissionOption[]
}

/** The tools that run arbitrary code with the user's rights, with the argument holding the code. */
export const codeRunners: Readonly<Record<string, { readonly argument: string; readonly label: string }>> = {
  bash: { argument: 'command', label: 'Run bash' },
  run_code: { argument: 'code', label: 'Run JavaScript (run_code)' },
}

function stringArgument(execution: ToolExecution, key: string): string | undefined {
  const args = execution.arguments
  if (typeof args !== 'object' || args === null || !Object.hasOwn(args, key)) return undefined
  const value: unknown = Object.getOwnPropertyDescriptor(args, key)?.value
  return typeof value === 'string' ? value : undefined
}

const cut = (line: string): string => (line.length <= maxShownLineChars ? line : `${line.slice(0, maxShownLineChars)}… (+${line.length - maxShownLineChars} characters)`)

/** The marker after the shown lines of a longer command. */
export const moreLines = (hidden: number): string => `  … ${hidden} more ${hidden === 1 ? 'line' : 'lines'} not shown`

function shownLines(lines: readonly string[]): string[] {
  const shown = lines.slice(0, maxShownLines).map((line) => `  ${cut(line)}`)
  const hidden = lines.length - shown.length
  return hidden > 0 ? [...shown, moreLines(hidden)] : shown
}

function options(execution: ToolExecution, code: string | undefined): PermissionOption[] {
  const tool = sanitize(execution.name)
  const prefix = execution.name === 'bash' && code !== undefined ? suggestedPrefix(code) : undefined
  const list: PermissionOption[] = [{ label: 'Yes, run it once', decision: { kind: 'allow-once' }, key: 'y' }]
  if (prefix !== undefined) list.push({ label: `Yes, and allow "${oneLine(prefix, 40)} …" for the rest of this session`, decision: { kind: 'allow-always', scope: { kind: 'command-prefix', prefix } }, key: 'a' })
  list.push({ label: `Yes, and allow every ${tool} call for the rest of this session`, decision: { kind: 'allow-always', scope: { kind: 'tool' } }, key: 't' })
  list.push({ label: 'No, and tell the model what to do instead…', decision: { kind: 'reject' }, withNote: true, key: 'm' })
  list.push({ label: 'No', decision: { kind: 'reject' }, key: 'n' })
  return list
}

/** Builds the question for one call. */
export function permissionQuestion(execution: ToolExecution, reason: string | undefined): PermissionQuestion {
  const runner = Object.hasOwn(codeRunners, execution.name) ? codeRunners[execution.name] : undefined
  const code = runner === undefined ? undefined : stringArgument(execution, runner.argument)
  if (runner !== undefined && code !== undefined) {
    const lines = sanitize(code).replace(/\n+$/, '').split('\n')
    if (lines.length <= 1) return { title: `${runner.label}: ${cut(lines[0] ?? '')}?`, detail: [], detailLines: 0, options: options(execution, code) }
    return { title: `${runner.label}: ${oneLine(lines[0] ?? '', 60)} (+${lines.length - 1} lines)?`, detail: shownLines(lines), detailLines: lines.length, options: options(execution, code) }
  }
  const summary = argumentSummary(JSON.stringify(execution.arguments ?? {}), 60)
  const why = reason === undefined ? '' : ` (${oneLine(reason, 80)})`
  return { title: `Allow ${sanitize(execution.name)}${summary === '' ? '' : ` ${summary}`}${why}?`, detail: [], detailLines: 0, options: options(execution, undefined) }
}
