/**
 * Claude Code's names of dsh's tools: the one table behind every reader of Claude Code's files —
 * permission rules (`Bash(npm test*)` is `bash(npm test*)`), hook matchers and the `tool_name` a
 * hook reads on stdin, and a skill's `allowed-tools`. Claude Code's subagent tool is `Agent` (it
 * was `Task` before 2.1.63), `MultiEdit` is dsh's `edit` as well, and its former `LS` lists what
 * dsh's `glob` lists; its `TodoWrite` is dsh's `todo_write`, its `WebFetch` dsh's `web_fetch`. MCP tools (`mcp__server__tool`) and dsh's own names are the same in both.
 */

/** Claude Code's current name of each dsh tool that has one. */
const CURRENT: Readonly<Record<string, string>> = { bash: 'Bash', read: 'Read', write: 'Write', edit: 'Edit', glob: 'Glob', grep: 'Grep', subagent: 'Agent', todo_write: 'TodoWrite', web_fetch: 'WebFetch' }

/** Older or second names Claude Code files may still use, by dsh tool. */
const FORMER: Readonly<Record<string, readonly string[]>> = { edit: ['MultiEdit'], glob: ['LS'], subagent: ['Task'] }

const TO_DSH: ReadonlyMap<string, string> = new Map([...Object.entries(CURRENT).map(([dsh, claude]) => [claude, dsh] as const), ...Object.entries(FORMER).flatMap(([dsh, names]) => names.map((claude) => [claude, dsh] as const))])

/** dsh's name of a tool a Claude Code file names (`Bash` → `bash`, `Task` → `subagent`); any other name unchanged. */
export function dshToolName(name: string): string {
  return TO_DSH.get(name) ?? name
}

/** The name a Claude Code hook expects for dsh's tool `name` (`bash` → `Bash`); unchanged when it has none. */
export function claudeToolName(name: string): string {
  return CURRENT[name] ?? name
}

/** Every Claude Code name of dsh's tool `name`, current first (a hook matcher may use any of them). */
export function claudeToolNames(name: string): readonly string[] {
  const current = CURRENT[name]
  return current === undefined ? [] : [current, ...(FORMER[name] ?? [])]
}
