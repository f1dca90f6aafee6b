/**
 * Parses permission rules: a tool name alone (`run_code`) or `tool(pattern)` (`bash(npm test*)`,
 * `write(**\/.env)`). A bad rule is a one-line error naming the rule and where it came from.
 * Claude Code's spellings mean the same rules, so a deny list copied from its settings protects
 * as written: its tool names (`Bash`, `Edit`, `MultiEdit`, `Agent` or its former name `Task`, …:
 * claude-tool-names.ts) are dsh's tools (`bash(…)`, `edit(…)`, `subagent`), and a path pattern
 * starting `//` is the absolute path after the first `/`.
 */
import type { PermissionRule } from '@dsh/contracts'
import { dshToolName as dshTool } from './claude-tool-names.ts'

/** A rule that does not parse; `message` is one line. */
export class RuleSyntaxError extends Error {
  override readonly name = 'RuleSyntaxError'
}

const toolName = /^(?:[A-Za-z_][\w-]*|mcp__[\w-]+__\*)$/

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
