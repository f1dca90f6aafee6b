// `allowed-tools` entries as dsh allow rules (allowed-tools.ts): Claude Code's names translated,
// patterns kept, names without a dsh tool and malformed entries listed as granting nothing.
import { describe, expect, it } from 'vitest'
import { allowedRules } from '../src/allowed-tools.ts'

describe('allowed-tools as rules', () => {
  it('translates Claude Code names and keeps patterns, MCP names and dsh names', () => {
    expect(allowedRules(['Bash(git add:*)', 'Read', 'MultiEdit', 'Edit', 'Grep', 'Task', 'mcp__github__create_issue', 'mcp__db__*', 'run_code', 'bash(npm test*)'])).toEqual({
      rules: ['bash(git add:*)', 'read', 'edit', 'grep', 'subagent', 'mcp__github__create_issue', 'mcp__db__*', 'run_code', 'bash(npm test*)'],
      ignored: [],
    })
  })

  it('lists what grants nothing', () => {
    expect(allowedRules(['WebFetch', 'TodoWrite', 'Bash()', '(x)', 'Read'])).toEqual({ rules: ['read'], ignored: ['WebFetch', 'TodoWrite', 'Bash()', '(x)'] })
  })
})
