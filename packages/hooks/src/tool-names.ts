/**
 * Hook matchers against dsh's tools, so hook files written for Claude Code match dsh's calls
 * unchanged: a matcher is tested against dsh's name (`bash`) and every Claude Code name of the
 * tool (`Bash`; `Edit` or `MultiEdit`; `Agent` or `Task`: the permissions package's table). The
 * stdin's `tool_name` is Claude Code's current name when there is one (`dsh_tool_name` is dsh's).
 */
import { claudeToolName, claudeToolNames } from '@dsh/permissions'

export { claudeToolName }

/** True when `pattern` (undefined: every tool) matches dsh's tool `name` or one of its Claude Code names. */
export function matchesTool(pattern: RegExp | undefined, name: string): boolean {
  if (pattern === undefined) return true
  return pattern.test(name) || claudeToolNames(name).some((claude) => pattern.test(claude))
}
