/**
 * Claude Code's tool names for dsh's tools, so hook files written for Claude Code match and read
 * dsh's calls unchanged: a matcher is tested against both names (`Bash` and `bash`), and the
 * stdin's `tool_name` is Claude Code's name when there is one (`dsh_tool_name` is dsh's own).
 * MCP tools (`mcp__server__tool`) have the same name in both.
 */

// Claude Code's subagent tool is `Agent` (it was `Task` before 2.1.63; matchers of that name still match).
const claudeNames: Readonly<Record<string, string>> = { bash: 'Bash', read: 'Read', write: 'Write', edit: 'Edit', glob: 'Glob', grep: 'Grep', subagent: 'Agent' }

/** Older Claude Code names a matcher may still use. */
const formerNames: Readonly<Record<string, string>> = { edit: 'MultiEdit', subagent: 'Task' }

/** The name a Claude Code hook expects for dsh's tool `name`. */
export function claudeToolName(name: string): string {
  return claudeNames[name] ?? name
}

/** True when `pattern` (undefined: every tool) matches dsh's tool `name` or its Claude Code name. */
export function matchesTool(pattern: RegExp | undefined, name: string): boolean {
  if (pattern === undefined) return true
  if (pattern.test(name)) return true
  const claude = claudeToolName(name)
  // Claude Code's MultiEdit is dsh's edit as well; Task is the subagent tool's former name.
  const former = formerNames[name]
  return pattern.test(claude) || (former !== undefined && pattern.test(former))
}
