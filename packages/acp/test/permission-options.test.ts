// The options of an ACP permission question: "always" for a simple command names its prefix, for
// a compound command the prefixes of its parts together; the whole bash tool is its own option,
// offered for a compound command only once bash asked before in the session.
import { describe, expect, it } from 'vitest'
import type { ToolExecution } from '@dsh/contracts'
import { permissionOptions } from '../src/permission-bridge.ts'

const call = (name: string, args: unknown): ToolExecution => ({ callId: 'c', name, arguments: args, signal: new AbortController().signal, token: Symbol('t') })
const names = (execution: ToolExecution, askedBefore = 0) => permissionOptions(execution, askedBefore).map((option) => `${option.optionId}: ${option.name}`)

describe('ACP permission options', () => {
  it('a compound command offers its parts, and the whole tool only when asked again', () => {
    expect(names(call('bash', { command: 'git status && npm test' }))).toEqual(['allow-once: Allow once', 'allow-always: Always allow "git status …", "npm test …" in this session', 'reject: Reject'])
    expect(names(call('bash', { command: 'git status && npm test' }), 1)).toEqual([
      'allow-once: Allow once',
      'allow-always: Always allow "git status …", "npm test …" in this session',
      'allow-always-tool: Always allow every bash call in this session',
      'reject: Reject',
    ])
    expect(names(call('bash', { command: 'cat "a;b" | wc' }))).toEqual(['allow-once: Allow once', 'reject: Reject'])
    expect(names(call('bash', { command: 'npm test -- --run' }), 3)).toEqual(['allow-once: Allow once', 'allow-always: Always allow "npm test …" in this session', 'reject: Reject'])
    expect(names(call('write', { file_path: 'a' }))).toEqual(['allow-once: Allow once', 'allow-always: Always allow write in this session', 'reject: Reject'])
  })
})
