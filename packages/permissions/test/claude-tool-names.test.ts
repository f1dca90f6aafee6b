// The one table of Claude Code's tool names: rules, hook names and skills' allowed-tools agree on it.
import { describe, expect, it } from 'vitest'
import { claudeToolName, claudeToolNames, dshToolName, parseRule } from '../src/index.ts'

describe("Claude Code's tool names", () => {
  it('map every current and former name to the dsh tool, and back to the current name', () => {
    const pairs = [['Bash', 'bash'], ['Read', 'read'], ['Write', 'write'], ['Edit', 'edit'], ['MultiEdit', 'edit'], ['Glob', 'glob'], ['LS', 'glob'], ['Grep', 'grep'], ['Agent', 'subagent'], ['Task', 'subagent'], ['TodoWrite', 'todo_write'], ['WebFetch', 'web_fetch']]
    for (const [claude, dsh] of pairs) expect(dshToolName(claude ?? '')).toBe(dsh)
    expect(['edit', 'glob', 'subagent', 'bash', 'todo_write'].map(claudeToolName)).toEqual(['Edit', 'Glob', 'Agent', 'Bash', 'TodoWrite'])
    expect(claudeToolNames('subagent')).toEqual(['Agent', 'Task'])
  })

  it('leave dsh and MCP names as they are', () => {
    expect(['run_code', 'mcp__github__create_issue', 'bash', 'NotebookEdit'].map(dshToolName)).toEqual(['run_code', 'mcp__github__create_issue', 'bash', 'NotebookEdit'])
    expect(claudeToolNames('run_code')).toEqual([])
    expect(claudeToolName('mcp__x__y')).toBe('mcp__x__y')
  })

  it('give rules in either spelling the same meaning', () => {
    expect(parseRule('LS(/etc/**)', 'test')).toEqual(parseRule('glob(/etc/**)', 'test'))
    expect(parseRule('Task', 'test')).toEqual(parseRule('subagent', 'test'))
  })
})
