/**
 * Parses permission rules: a tool name alone (`run_code`) or `tool(pattern)` (`bash(npm test*)`,
 * `write(**\/.env)`). A bad rule is a one-line error naming the rule and where it came from.
 */
import type { PermissionRule } from '@dsh/contracts'

/** A rule that does not parse; `message` is one line. */
export class RuleSyntaxError extends Error {
  override readonly name = 'RuleSyntaxError'
}

const toolName = /^(?:[A-Za-z_][\w-]*|mcp__[\w-]+__\*)$/

/** Parses one rule; `where` names its origin in the error (`--allow`, `settings.yaml permissions.deny[2]`). */
export function parseRule(text: string, where: string): PermissionRule {
  const trimmed = text.trim()
  const open = trimmed.indexOf('(')
  if (open === -1) {
    if (!toolName.test(trimmed)) throw new RuleSyntaxError(`${where}: invalid permission rule ${JSON.stringify(text)} (expected TOOL or TOOL(PATTERN), e.g. bash(npm test*))`)
    return { text: trimmed, tool: trimmed }
  }
  const tool = trimmed.slice(0, open)
  if (!toolName.test(tool) || !trimmed.endsWith(')')) {
    throw new RuleSyntaxError(`${where}: invalid permission rule ${JSON.stringify(text)} (expected TOOL or TOOL(PATTERN), e.g. bash(npm test*))`)
  }
  const pattern = trimmed.slice(open + 1, -1).trim()
  if (pattern === '') throw new RuleSyntaxError(`${where}: empty pattern in permission rule ${JSON.stringify(text)} (write ${tool} alone to match every call)`)
  return { text: `${tool}(${pattern})`, tool, pattern }
}

/** Parses a list of rules; element errors name their index (`permissions.allow[1]`). */
export function parseRules(texts: readonly string[], where: string): PermissionRule[] {
  return texts.map((text, index) => parseRule(text, `${where}[${index}]`))
}
