/**
 * A skill's `allowed-tools` as dsh allow rules: Claude Code's tool names become dsh's (`Bash` →
 * `bash`, `Read` → `read`, `MultiEdit` → `edit`, `Agent` (formerly `Task`) → `subagent`, …), `mcp__server__tool`
 * and dsh's own names stay as they are, and `Name(pattern)` keeps its pattern (`Bash(git add:*)` →
 * `bash(git add:*)`). Names dsh has no tool for (`WebFetch`, `TodoWrite`, …) and entries that are
 * not `NAME` or `NAME(PATTERN)` grant nothing and are listed as `ignored`.
 */
import { dshToolName } from '@dsh/permissions'

/** Claude Code tools dsh has no counterpart for. */
const NO_COUNTERPART = new Set(['WebFetch', 'WebSearch', 'NotebookEdit', 'NotebookRead', 'TodoWrite', 'TodoRead', 'KillShell', 'BashOutput', 'ExitPlanMode', 'SlashCommand', 'Skill'])

const ENTRY = /^([A-Za-z_][\w-]*|mcp__[\w-]+__\*)(?:\((.*)\))?$/s

/** The rules an `allowed-tools` list grants, and the entries that grant nothing. */
export interface AllowedRules {
  readonly rules: readonly string[]
  readonly ignored: readonly string[]
}

/** Translates `allowed-tools` entries (as front-matter.ts split them). */
export function allowedRules(entries: readonly string[]): AllowedRules {
  const rules: string[] = []
  const ignored: string[] = []
  for (const entry of entries) {
    const match = ENTRY.exec(entry.trim())
    const name = match?.[1]
    if (match === null || name === undefined || NO_COUNTERPART.has(name)) {
      ignored.push(entry)
      continue
    }
    const tool = dshToolName(name)
    const pattern = match[2]?.trim()
    if (pattern === '') {
      ignored.push(entry)
      continue
    }
    const rule = pattern === undefined ? tool : `${tool}(${pattern})`
    if (!rules.includes(rule)) rules.push(rule)
  }
  return { rules, ignored }
}
