/**
 * Matching calls against allow and deny rules (README "Rules").
 *
 * - `bash(PATTERN)`: PATTERN is matched against each simple command of the command line
 *   (shell-segments.ts), whole, with runs of whitespace as one space; `*` matches any characters
 *   and a final `:*` matches the words before it alone or followed by a space and anything.
 *   Allowing needs every simple command to be matched by an allow rule (reserved words before its
 *   program left out: `then cat x` as `cat x`; `fi`, `done` and a `for i in …` header need none;
 *   `case`, `function`, `[[` and unquoted parentheses are never allowed by rules; output
 *   redirected into a file only by a rule whose pattern has a `>`), and a command line with
 *   substitution (`$(…)`, backticks, `<(…)`) is never allowed by rules. A deny rule matches when
 *   any simple command matches, substitution contents and the program after assignments and
 *   keywords (`FOO=1 rm -rf x`) included.
 * - `run_code(PATTERN)`: the snippet's code, whole, with the same `*`.
 * - `write`, `edit`, `read`, `glob`, `grep` (PATTERN): a glob (`**`, `*`, `?`, `{a,b}`, dot files
 *   included) on the path: a relative pattern on the path relative to the working directory (or,
 *   outside it, the absolute path without its leading `/`), an absolute pattern on the absolute path,
 *   and `~/…` on the absolute path below the user's home.
 *   Paths are matched as written and canonically (links resolved): a deny rule when either
 *   matches, an allow rule only when both do.
 * - Deny rules for bash also match by the command's shape (command-shape.ts): flag bundles and
 *   orders (`rm -fr`, `rm --recursive --force`) and global options before a subcommand
 *   (`git -C dir push`) count as the spelling the rule names.
 * - `web_fetch(domain:HOST)` (Claude Code's `WebFetch(domain:…)`): the URL's host is HOST, or for
 *   `domain:*.HOST` HOST or a name below it; any other pattern is matched against the whole URL
 *   with `*`. A URL that does not parse matches no allow rule and every deny rule with a pattern.
 * - A bare tool name matches every call of the tool; `mcp__SERVER` and `mcp__SERVER__*` match every
 *   tool of an MCP server, `mcp__SERVER__TOOL` one tool.
 * - `write` and `edit` rules are one family: either name covers calls of both file-changing tools
 *   (a `write(**\/.env)` deny also stops an `edit` of `.env`).
 */
import { isAbsolute, relative, sep } from 'node:path'
import picomatch from 'picomatch'
import type { PermissionRule } from '@dsh/contracts'
import { callSubject, type CallSubject } from './call-subject.ts'
import { shapeMatches } from './command-shape.ts'
import { denyCandidates } from './deny-candidates.ts'
import { commandPart, expandTilde } from '@dsh/runtime'
import { canonicalTarget } from './root-check.ts'
import { readShell } from './shell-segments.ts'

/** A tool call as rules see it. */
export interface RuleCall {
  readonly tool: string
  readonly args: unknown
  /** The tool declares it changes nothing (an MCP server's `readOnlyHint`). */
  readonly readOnly?: boolean
  /** Working directory of the session (absolute). */
  readonly cwd: string
}

const collapse = (text: string): string => text.trim().replace(/\s+/g, ' ')
const escape = (text: string): string => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&')

const fileChanging = new Set(['write', 'edit'])

/**
 * True when a rule written for `ruleTool` applies to a call of `callTool`. MCP rules also name a
 * whole server: `mcp__github` and `mcp__github__*` cover every `mcp__github__<tool>`.
 */
function appliesTo(ruleTool: string, callTool: string): boolean {
  if (ruleTool.startsWith('mcp__')) {
    const server = ruleTool.endsWith('__*') ? ruleTool.slice(0, -3) : ruleTool
    return ruleTool === callTool || (!server.slice(5).includes('__') && callTool.startsWith(`${server}__`))
  }
  return ruleTool === callTool || (fileChanging.has(ruleTool) && fileChanging.has(callTool))
}

/** The regular expression of a command or code pattern. */
export function textPattern(pattern: string): RegExp {
  const text = collapse(pattern)
  const wordPrefix = text.endsWith(':*')
  const body = wordPrefix ? text.slice(0, -2).trimEnd() : text
  const source = body.split('*').map(escape).join('[\\s\\S]*')
  return new RegExp(`^${source}${wordPrefix ? '(?: [\\s\\S]*)?' : ''}$`)
}

function spellingMatches(pattern: string, path: string, cwd: string): boolean {
  const matcher = picomatch(pattern, { dot: true })
  if (isAbsolute(pattern)) return matcher(path)
  const inside = relative(cwd, path)
  const candidate = inside === '' ? '.' : !inside.startsWith('..') && !isAbsolute(inside) ? inside : path.slice(1)
  return matcher(candidate.split(sep).join('/'))
}

/** An absolute pattern with the links of its literal directory part resolved. */
function canonicalPattern(pattern: string): string {
  if (!isAbsolute(pattern)) return pattern
  const { base, glob, isGlob } = picomatch.scan(pattern)
  if (!isGlob || base === '') return canonicalTarget(pattern)
  return `${canonicalTarget(base)}/${glob}`
}

/**
 * A path rule against the path as written and canonically (links resolved, against the
 * canonical cwd): a deny rule matches when either spelling does, an allow rule only when both
 * do, so no link reaches a denied file and no link turns an allowed path into another file.
 */
function pathMatches(rulePattern: string, path: string, cwd: string, side: 'allow' | 'deny'): boolean {
  // `~/…` is the user's home, as Claude Code's rules write it (`Read(~/.aws/**)`).
  const pattern = expandTilde(rulePattern)
  const written = spellingMatches(pattern, path, cwd)
  if (side === 'deny' && written) return true
  if (side === 'allow' && !written) return false
  const canonical = canonicalTarget(path)
  const canonicalCwd = canonicalTarget(cwd)
  if (canonical === path && canonicalCwd === cwd) return written
  return spellingMatches(canonicalPattern(pattern), canonical, canonicalCwd)
}

/** Whether a `web_fetch` rule pattern covers `url` (see the module header). */
function urlMatches(pattern: string, url: string, side: 'allow' | 'deny'): boolean {
  let host: string
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, '')
  } catch {
    // Not a URL: the tool refuses it anyway; no allow rule may let it through, a deny rule stops it.
    return side === 'deny'
  }
  if (!pattern.startsWith('domain:')) return textPattern(pattern).test(url)
  const domain = pattern.slice('domain:'.length).trim().toLowerCase().replace(/\.$/, '')
  if (domain === '*') return true
  if (domain.startsWith('*.')) return host === domain.slice(2) || host.endsWith(domain.slice(1))
  return host === domain
}

function subjectMatches(rule: PermissionRule, subject: CallSubject, cwd: string, commandText: string | undefined, side: 'allow' | 'deny'): boolean {
  if (rule.pattern === undefined) return true
  switch (subject.kind) {
    case 'command':
      return commandText !== undefined && textPattern(rule.pattern).test(commandText)
    case 'code':
      return textPattern(rule.pattern).test(subject.code)
    case 'path':
      return pathMatches(rule.pattern, subject.path, cwd, side)
    case 'url':
      return urlMatches(rule.pattern, subject.url, side)
    case 'none':
      return false
    default: {
      const unreachable: never = subject
      throw new Error(`unknown call subject ${JSON.stringify(unreachable)}`)
    }
  }
}

/** The first deny rule that matches the call, if any. */
export function denyingRule(rules: readonly PermissionRule[], call: RuleCall): PermissionRule | undefined {
  const mine = rules.filter((rule) => appliesTo(rule.tool, call.tool))
  if (mine.length === 0) return undefined
  const subject = callSubject(call.tool, call.args, call.cwd)
  if (subject.kind !== 'command') return mine.find((rule) => subjectMatches(rule, subject, call.cwd, undefined, 'deny'))
  const reading = readShell(subject.command, true)
  const commands = reading.commands.flatMap((command) => denyCandidates(command))
  return mine.find((rule) => rule.pattern === undefined || commands.some((command) => subjectMatches(rule, subject, call.cwd, command, 'deny') || shapeMatches(rule.pattern ?? '', command)))
}

/** The allow rules that together allow the call (one per simple command of a bash line), or undefined. */
export function allowingRules(rules: readonly PermissionRule[], call: RuleCall): PermissionRule[] | undefined {
  const mine = rules.filter((rule) => appliesTo(rule.tool, call.tool))
  if (mine.length === 0) return undefined
  const bare = mine.find((rule) => rule.pattern === undefined)
  if (bare !== undefined) return [bare]
  const subject = callSubject(call.tool, call.args, call.cwd)
  if (subject.kind !== 'command') {
    const found = mine.find((rule) => subjectMatches(rule, subject, call.cwd, undefined, 'allow'))
    return found === undefined ? undefined : [found]
  }
  const reading = readShell(subject.command)
  if (reading.substitutes || reading.opaque || reading.commands.length === 0) return undefined
  const used: PermissionRule[] = []
  for (const command of reading.commands) {
    // Reserved words are no program: `then cat x` is matched as `cat x`, `fi` needs no rule, and a
    // rule written for a reserved word (`if:*`) allows nothing after it.
    const part = commandPart(command)
    if (part.kind === 'nothing') continue
    if (part.kind === 'opaque') return undefined
    // Output into a file (`echo x > src/a.ts`) is allowed only by a rule that spells a redirection.
    const found = mine.find((rule) => (!part.writesFile || (rule.pattern ?? '').includes('>')) && subjectMatches(rule, subject, call.cwd, part.text, 'allow'))
    if (found === undefined) return undefined
    if (!used.includes(found)) used.push(found)
  }
  return used.length === 0 ? undefined : used
}
