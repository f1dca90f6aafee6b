/**
 * The permission question for one tool call, independent of how it is shown: a title (`Run bash:
 * npm test`), every line of the code to run — whole, never cut (sanitised: control characters
 * shown visibly) — where it runs and why the policy asks, and the answers on offer: once, always
 * for a command prefix (simple `bash` commands) or for the prefixes of a compound command's parts
 * together (`git status && npm test`), always for the tool, reject with a note for the model,
 * reject. For a compound command (`a && b`, `a; b`, pipes) "always for the tool" is offered only
 * from the second question of that tool in the session: one "always" must not silently cover
 * whatever else the next compound command chains on. A `web_fetch` question offers its URL's host
 * ("allow fetches from docs.python.org"), and the whole tool likewise only from its second question.
 */
import type { PermissionDecision, ToolExecution } from '@dsh/contracts'
import { commandScope, fetchScope, stringArgument } from '@dsh/runtime'
import { oneLine, sanitize } from '../text-safety.ts'
import { argumentSummary } from '../tool-summary.ts'

/** A one-line command up to this long is the title itself; a longer one is also shown whole below it. */
export const shortCommand = 60

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
  /** One line naming the tool and (for code) the command's first line; front ends wrap it, never cut it. */
  readonly title: string
  /** Every line of a multi-line command or snippet, indented by two spaces, whole; empty otherwise. */
  readonly detail: readonly string[]
  /** `in DIR` and `why: REASON` lines (each present when known); front ends wrap them. */
  readonly context: readonly string[]
  readonly options: readonly PermissionOption[]
}

/** What the question says besides the call: where it runs, and whether its tool asked before. */
export interface QuestionContext {
  /** The session's working directory. */
  readonly cwd?: string | undefined
  /** Why the policy asks (the permission service's reason). */
  readonly reason?: string | undefined
  /** How many questions about this tool the session asked before this one. */
  readonly askedBefore?: number
}

/** The tools that run arbitrary code with the user's rights, with the argument holding the code. */
export const codeRunners: Readonly<Record<string, { readonly argument: string; readonly label: string }>> = {
  bash: { argument: 'command', label: 'Run bash' },
  run_code: { argument: 'code', label: 'Run JavaScript (run_code)' },
}

function options(execution: ToolExecution, code: string | undefined, askedBefore: number): PermissionOption[] {
  const tool = sanitize(execution.name)
  const url = execution.name === 'web_fetch' ? stringArgument(execution, 'url') : undefined
  const scope = execution.name === 'bash' && code !== undefined ? commandScope(code) : url === undefined ? undefined : fetchScope(url)
  // A compound command and a fetch offer their narrow scope first; the whole tool only from the tool's second question.
  const narrowFirst = (execution.name === 'bash' && code !== undefined && scope?.kind !== 'command-prefix') || scope?.kind === 'domain'
  const list: PermissionOption[] = [{ label: 'Yes, run it once', decision: { kind: 'allow-once' }, key: 'y' }]
  if (scope?.kind === 'domain') list.push({ label: `Yes, and allow fetches from ${oneLine(sanitize(scope.host), 60)} for the rest of this session`, decision: { kind: 'allow-always', scope }, key: 'a' })
  if (scope?.kind === 'command-prefix') list.push({ label: `Yes, and allow "${oneLine(scope.prefix, 40)} …" for the rest of this session`, decision: { kind: 'allow-always', scope }, key: 'a' })
  if (scope?.kind === 'command-prefixes') {
    const named = scope.prefixes.map((prefix) => `"${oneLine(prefix, 40)} …"`).join(', ')
    list.push({ label: `Yes, and allow each part (${named}) for the rest of this session`, decision: { kind: 'allow-always', scope }, key: 'a' })
  }
  if (!narrowFirst || askedBefore > 0) list.push({ label: `Yes, and allow every ${tool} call for the rest of this session`, decision: { kind: 'allow-always', scope: { kind: 'tool' } }, key: 't' })
  list.push({ label: 'No, and tell the model what to do instead…', decision: { kind: 'reject' }, withNote: true, key: 'm' })
  list.push({ label: 'No', decision: { kind: 'reject' }, key: 'n' })
  return list
}

/** Builds the question for one call. */
export function permissionQuestion(execution: ToolExecution, context: QuestionContext = {}): PermissionQuestion {
  const runner = Object.hasOwn(codeRunners, execution.name) ? codeRunners[execution.name] : undefined
  const code = runner === undefined ? undefined : stringArgument(execution, runner.argument)
  const where = [...(context.cwd === undefined ? [] : [`in ${sanitize(context.cwd)}`]), ...(context.reason === undefined ? [] : [`why: ${sanitize(context.reason)}`])]
  const answers = options(execution, code, context.askedBefore ?? 0)
  if (runner !== undefined && code !== undefined) {
    const lines = sanitize(code).replace(/\n+$/, '').split('\n')
    const first = lines[0] ?? ''
    if (lines.length <= 1 && first.length <= shortCommand) return { title: `${runner.label}: ${first}?`, detail: [], context: where, options: answers }
    if (lines.length <= 1) return { title: `${runner.label}: ${oneLine(first, shortCommand)}?`, detail: [`  ${first}`], context: where, options: answers }
    return { title: `${runner.label}: ${oneLine(lines[0] ?? '', 60)} (+${lines.length - 1} lines)?`, detail: lines.map((line) => `  ${line}`), context: where, options: answers }
  }
  const summary = argumentSummary(JSON.stringify(execution.arguments ?? {}), 60)
  return { title: `Allow ${sanitize(execution.name)}${summary === '' ? '' : ` ${summary}`}?`, detail: [], context: where, options: answers }
}
