// MCP tools in the permission policy: read-only mode denies tools not annotated read-only, ask
// mode asks unless the tool is read-only or a rule allows it, full-auto runs them, and rules name
// a server (`mcp__github`, `mcp__github__*`) or one tool (`mcp__github__create_issue`).
import { describe, expect, it } from 'vitest'
import type { PermissionMode } from '@dsh/contracts'
import { decide } from '@dsh/permissions'
import { verdictOf } from './verdict-of.ts'

const cwd = '/work/repo'
const call = (tool: string, readOnly = false) => ({ tool, args: {}, cwd, ...(readOnly ? { readOnly: true } : {}) })
const verdict = (mode: PermissionMode, tool: string, options: { readOnly?: boolean; allow?: string[]; deny?: string[]; interactive?: boolean } = {}) => verdictOf(mode, call(tool, options.readOnly), options)

describe('MCP tools and permission modes', () => {
  it('follows the mode table, read-only tools allowed everywhere', () => {
    const modes: PermissionMode[] = ['read-only', 'ask', 'auto-edit', 'full-auto', 'danger-full-access']
    expect(modes.map((mode) => verdict(mode, 'mcp__github__create_issue'))).toEqual(['deny', 'ask', 'ask', 'allow', 'allow'])
    expect(modes.map((mode) => verdict(mode, 'mcp__github__get_issue', { readOnly: true }))).toEqual(['allow', 'allow', 'allow', 'allow', 'allow'])
  })

  it('names the missing annotation when read-only mode denies', () => {
    const decision = decide({ mode: 'read-only', allow: [], deny: [], session: [], sandboxAvailable: true, interactive: true, call: call('mcp__github__create_issue') })
    expect(decision).toMatchObject({ verdict: 'deny', text: { reason: 'the permission mode is read-only, and this MCP tool is not annotated read-only by its server (readOnlyHint)' } })
  })
})

describe('rules naming MCP tools', () => {
  it('allows a server, a server wildcard or one tool', () => {
    for (const rule of ['mcp__github', 'mcp__github__*', 'mcp__github__create_issue']) expect(verdict('ask', 'mcp__github__create_issue', { allow: [rule] })).toBe('allow')
    expect(verdict('ask', 'mcp__github__delete_repo', { allow: ['mcp__github__create_issue'] })).toBe('ask')
    expect(verdict('ask', 'mcp__githubber__x', { allow: ['mcp__github'] })).toBe('ask')
    expect(verdict('ask', 'mcp__githubber__x', { allow: ['mcp__github__*'] })).toBe('ask')
  })

  it('denies by rule, deny winning over allow and over full-auto', () => {
    expect(verdict('full-auto', 'mcp__github__delete_repo', { deny: ['mcp__github'], allow: ['mcp__github__delete_repo'] })).toBe('deny')
    expect(verdict('full-auto', 'mcp__github__get_issue', { readOnly: true, deny: ['mcp__github__*'] })).toBe('deny')
  })

  it('denies an ask when nobody can be asked (dsh run in ask mode)', () => {
    expect(verdict('ask', 'mcp__github__create_issue', { interactive: false })).toBe('deny')
  })
})
