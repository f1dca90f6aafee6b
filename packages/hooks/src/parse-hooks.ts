/**
 * Reads a `hooks` section in Claude Code's shape — `{ EventName: [ { matcher, hooks: [ { type:
 * "command", command, timeout } ] } ] }`, `timeout` in seconds — into hook entries. Bad input
 * never stops the others: an unknown event name, a matcher that is not a regular expression, a
 * missing command or an unsupported type is one line naming the file, the event and the entry,
 * and every other hook still loads. `maxStopContinues` (dsh's own key) may sit beside the events.
 * A hook's `if` (a permission rule, tool events only), `once`, `async` / `asyncRewake` (in the
 * background) and `shell` (`bash`, the only one) are read; a bad one is such a line and that hook does not load. `statusMessage` is accepted and
 * not shown.
 */
import { parseRule, RuleSyntaxError } from '@dsh/permissions'
import { HOOK_EVENTS, TOOL_EVENTS, type HookCondition, type HookEntry, type HookEventName, type HookSource } from './hook-types.ts'

/** Default time limit of a hook, in seconds (Claude Code's field is seconds too). */
export const DEFAULT_HOOK_TIMEOUT_S = 60

/** Default of `hooks.maxStopContinues`. */
export const DEFAULT_MAX_STOP_CONTINUES = 3

/** What a section gave. */
export interface ParsedHooks {
  readonly entries: readonly HookEntry[]
  /** One line per problem, each naming file, event and entry. */
  readonly problems: readonly string[]
  /** `maxStopContinues` when the section sets it. */
  readonly maxStopContinues?: number
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isEvent(name: string): name is HookEventName {
  return (HOOK_EVENTS as readonly string[]).includes(name)
}

/** Compiles a matcher; '' and '*' match every tool. Throws SyntaxError for a bad expression. */
export function compileMatcher(matcher: string): RegExp | undefined {
  if (matcher === '' || matcher === '*') return undefined
  return new RegExp(`^(?:${matcher})$`)
}

/** Parses one section; `section` is the value under `hooks`. */
export function parseHooks(section: unknown, source: HookSource): ParsedHooks {
  if (section === undefined || section === null) return { entries: [], problems: [] }
  const at = (where: string, what: string): string => `${source.file}: hooks.${where}: ${what}`
  if (!isRecord(section)) return { entries: [], problems: [`${source.file}: hooks: expected a mapping of event names to lists`] }
  const entries: HookEntry[] = []
  const problems: string[] = []
  let maxStopContinues: number | undefined
  for (const [event, groups] of Object.entries(section)) {
    if (event === 'maxStopContinues') {
      if (typeof groups === 'number' && Number.isInteger(groups) && groups >= 0 && groups <= 100) maxStopContinues = groups
      else problems.push(at(event, 'expected a whole number from 0 to 100'))
      continue
    }
    if (!isEvent(event)) {
      problems.push(at(event, `unknown event (known: ${HOOK_EVENTS.join(', ')})`))
      continue
    }
    if (!Array.isArray(groups)) {
      problems.push(at(event, 'expected a list of { matcher, hooks: [...] }'))
      continue
    }
    for (const [index, group] of groups.entries()) {
      const where = `${event}[${index}]`
      if (!isRecord(group) || !Array.isArray(group['hooks'])) {
        problems.push(at(where, 'expected { matcher, hooks: [ { type: "command", command } ] }'))
        continue
      }
      const matcher = group['matcher'] === undefined ? '' : group['matcher']
      if (typeof matcher !== 'string') {
        problems.push(at(where, 'matcher: expected a string'))
        continue
      }
      let pattern: RegExp | undefined
      try {
        pattern = compileMatcher(matcher)
      } catch (error) {
        // The expression does not compile: the group is skipped with the reason, the others load.
        problems.push(at(where, `matcher ${JSON.stringify(matcher)} is not a valid regular expression (${error instanceof Error ? error.message : String(error)})`))
        continue
      }
      for (const [position, hook] of group['hooks'].entries()) {
        const entryWhere = `${where}.hooks[${position}]`
        const problem = hookProblem(hook)
        if (problem !== undefined || !isRecord(hook) || typeof hook['command'] !== 'string') {
          problems.push(at(entryWhere, problem ?? 'missing command'))
          continue
        }
        const condition = conditionOf(event, hook['if'])
        if (typeof condition === 'string') {
          problems.push(at(entryWhere, condition))
          continue
        }
        const timeout = typeof hook['timeout'] === 'number' ? hook['timeout'] : DEFAULT_HOOK_TIMEOUT_S
        entries.push({ event, matcher, pattern, command: hook['command'], timeoutMs: Math.round(timeout * 1000), source, where: entryWhere, ...(condition === undefined ? {} : { condition }), ...(hook['once'] === true ? { once: true } : {}), ...(hook['async'] === true || hook['asyncRewake'] === true ? { background: true } : {}) })
      }
    }
  }
  return { entries, problems, ...(maxStopContinues === undefined ? {} : { maxStopContinues }) }
}

/** A hook's `if` parsed, undefined without one, or what is wrong with it. */
function conditionOf(event: HookEventName, written: unknown): HookCondition | string | undefined {
  if (written === undefined) return undefined
  if (typeof written !== 'string' || written.trim() === '') return 'if: expected a permission rule such as "Bash(git push *)"'
  if (!TOOL_EVENTS.includes(event)) return `if: applies to the tool events only (${TOOL_EVENTS.join(', ')}); this hook does not run`
  try {
    return { text: written, rule: parseRule(written, 'if') }
  } catch (error) {
    // The rule is the person's input: said, and this hook is left out (the others load).
    if (!(error instanceof RuleSyntaxError)) throw error
    return `${error.message}; this hook does not run`
  }
}

/** What is wrong with one hook object, or undefined. */
function hookProblem(hook: unknown): string | undefined {
  if (!isRecord(hook)) return 'expected { type: "command", command }'
  const type = hook['type'] ?? 'command'
  if (type !== 'command') return `unsupported hook type ${JSON.stringify(type)} (dsh runs type "command" only)`
  if (typeof hook['command'] !== 'string' || hook['command'].trim() === '') return 'missing command'
  const timeout = hook['timeout']
  if (timeout !== undefined && (typeof timeout !== 'number' || !(timeout > 0) || timeout > 86_400)) return 'timeout: expected seconds, more than 0 and at most 86400'
  for (const flag of ['once', 'async', 'asyncRewake']) if (hook[flag] !== undefined && typeof hook[flag] !== 'boolean') return `${flag}: expected true or false`
  const shell = hook['shell']
  if (shell !== undefined && shell !== 'bash') return `shell ${JSON.stringify(shell)} is not supported (dsh runs hook commands with bash)`
  return undefined
}
