/**
 * Parses permission rules: a tool name alone (`run_code`) or `tool(pattern)` (`bash(npm test*)`,
 * `write(**\/.env)`). A bad rule is a one-line error naming the rule and where it came from.
 * Claude Code's spellings mean the same rules, so a deny list copied from its settings protects
 * as written: its tool names (`Bash`, `Read`, `Write`, `Edit`, `MultiEdit`, `Glob`, `Grep`,
 * `Agent` or its former name `Task`) are dsh's tools (`bash(…)`, …, `subagent`), and a path pattern starting `//` is the
 * absolute path after the first `/`.
 */
import type { PermissionRule } from '@dsh/contracts'

/** A rule that does not parse; `message` is one line. */
export class RuleSyntaxError extends Error {
  override readonly name = 'RuleSyntaxError'
}

const toolName = /^(?:[A-Za-z_][\w-]*|mcp__[\w-]+__\*)$/

/** Claude Code's names of dsh's tools (rules, hook matchers and `if` conditions use them). */
const claudeToolNames: Readonly<Record<string, string>> = { Bash: 'bash', Read: 'read', Write: 'write', Edit: 'edit', MultiEdit: 'edit', Glob: 'glob', Grep: 'grep', Agent: 'subagent', Task: 'subagent' }

/** dsh's name of a tool a rule names (Claude Code's name, or dsh's own). */
const dshTool = (name: string): string => claudeToolNames[name] ?? name

/** Tools whose patterns are paths. */
const pathTools = new Set(['read', 'write', 'edit', 'glob', 'grep'])

/** Parses one rule; `where` names its origin in the error (`--allow`, `settings.yaml permissions.deny[2]`). */
export function parseRule(text: string, where: string): PermissionRule {
  const trimmed = text.trim()
  const open = trimmed.indexOf('(')
  if (open === -1) {
    if (!toolName.test(trimmed)) throw new RuleSyntaxError(`${where}: invalid permission rule ${JSON.stringify(text)} (expected TOOL or TOOL(PATTERN), e.g. bash(npm test*))`)
    const tool = dshTool(trimmed)
    return { text: tool, tool }
  }
  const written = trimmed.slice(0, open)
  if (!toolName.test(written) || !trimmed.endsWith(')')) {
    throw new RuleSyntaxError(`${where}: invalid permission rule ${JSON.stringify(text)} (expected TOOL or TOOL(PATTERN), e.g. bash(npm test*))`)
  }
  const tool = dshTool(written)
  const inner = trimmed.slice(open + 1, -1).trim()
  if (inner === '') throw new RuleSyntaxError(`${where}: empty pattern in permission rule ${JSON.stringify(text)} (write ${written} alone to match every call)`)
  const pattern = pathTools.has(tool) && inner.startsWith('//') ? inner.slice(1) : inner
  return { text: `${tool}(${pattern})`, tool, pattern }
}

/** Parses a list of rules; element errors name their index (`permissions.allow[1]`). */
export function parseRules(texts: readonly string[], where: string): PermissionRule[] {
  return texts.map((text, index) => parseRule(text, `${where}[${index}]`))
}
