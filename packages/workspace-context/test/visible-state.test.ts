// The typed state channel: only this plugin's `workspace-instructions` sources, version 1, with
// well-formed changes, count. Sources of other plugins (multi-root's, a plugin-kind source named
// after this plugin), unknown versions and malformed entries are ignored, never parsed from prose.
import { describe, expect, it } from 'vitest'
import type { Message, UserMessage } from '@dsh/contracts'
import { PLUGIN_NAME } from '../src/message.ts'
import { projectScope, userGlobalScope } from '../src/scope-key.ts'
import { deriveVisibleState, instructionSource } from '../src/visible-state.ts'

const ROOT = projectScope('.', 'base').key
const PKG = projectScope('pkg', 'base').key
const good = { action: 'set', scope: ROOT, path: 'AGENTS.md', digest: 'a' }

function message(source: unknown, text = 'Instructions from: pkg/AGENTS.md'): UserMessage {
  // Persisted sources are untyped JSON on the way back in: build them like a loaded session would.
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion
  return { id: `m${Math.random()}`, role: 'user', content: [{ type: 'text', text }], source: source as UserMessage['source'] }
}

const tool = (isError: boolean): Message => ({ id: 't', role: 'tool', callId: 'call_1', toolName: 'read', isError, content: [{ type: 'text', text: 'x' }], source: { kind: 'tool' } })
const ours = (changes: unknown, extra: Record<string, unknown> = {}) => message({ kind: 'workspace-instructions', version: 1, plugin: PLUGIN_NAME, changes, ...extra })

describe('visible state reads only this plugin sources', () => {
  it('ignores another plugin sources, unknown versions, a plugin-kind source and prose', () => {
    const state = deriveVisibleState(
      [
        message({ kind: 'workspace-instructions', version: 1, plugin: 'multi-root-workspace', changes: [good], baseline: true, baselineIdentity: 'x' }),
        message({ kind: 'workspace-instructions', version: 2, plugin: PLUGIN_NAME, changes: [good] }),
        message({ kind: 'plugin', plugin: PLUGIN_NAME, form: 'instructions', data: { changes: [good] } }),
        message({ kind: 'user' }, 'Instructions from: AGENTS.md\n\nAdditional instructions from: pkg/AGENTS.md'),
      ],
      PLUGIN_NAME,
    )
    expect(state.scopes.size).toBe(0)
    expect(state.baseline).toBeUndefined()
  })

  it('drops malformed changes one by one and keeps the well-formed ones', () => {
    const malformed = [
      null,
      'set',
      { action: 'upsert', scope: PKG, path: 'pkg/AGENTS.md' },
      { action: 'set', scope: 7, path: 'pkg/AGENTS.md' },
      { action: 'set', scope: PKG },
      { action: 'set', scope: PKG, path: 'pkg/AGENTS.md', digest: 12 },
      { action: 'replace', scope: PKG, path: 'pkg/AGENTS.md', previousPath: ['x'] },
      { action: 'set', scope: PKG, path: 'pkg/AGENTS.md', truncated: 'yes' },
      { action: 'set', scope: PKG, path: 'pkg/AGENTS.md', sameAs: { scope: ROOT } },
      { action: 'set', scope: PKG, path: 'pkg/AGENTS.md', readCallId: 5 },
    ]
    const state = deriveVisibleState([ours([...malformed, good])], PLUGIN_NAME)
    expect([...state.scopes.keys()]).toEqual([ROOT])
    expect(instructionSource(ours([...malformed, good]).source, PLUGIN_NAME)?.changes).toEqual([good])
  })

  it('ignores a source whose changes are not a list', () => {
    expect(deriveVisibleState([ours(undefined), message({ kind: 'workspace-instructions', version: 1, plugin: PLUGIN_NAME, changes: { 0: good } })], PLUGIN_NAME).scopes.size).toBe(0)
  })

  it('a same-file entry is in effect only while the scope it names is loaded with its own content', () => {
    const sameAs = { action: 'set', scope: PKG, path: 'pkg/AGENTS.md', digest: 'a', sameAs: { scope: ROOT, path: 'AGENTS.md' } }
    expect([...deriveVisibleState([ours([good, sameAs])], PLUGIN_NAME).scopes.keys()]).toEqual([ROOT, PKG])
    expect([...deriveVisibleState([ours([sameAs])], PLUGIN_NAME).scopes.keys()]).toEqual([])
    expect(deriveVisibleState([ours([good, sameAs]), ours([{ action: 'remove', scope: ROOT, path: 'AGENTS.md' }])], PLUGIN_NAME).scopes.has(PKG)).toBe(false)
  })

  it('a read-delivered entry is in effect only while its successful tool result is visible', () => {
    const read = { action: 'set', scope: userGlobalScope().key, path: '~/.dsh/AGENTS.md', digest: 'g', readCallId: 'call_1' }
    expect(deriveVisibleState([tool(false), ours([read])], PLUGIN_NAME).scopes.size).toBe(1)
    expect(deriveVisibleState([tool(true), ours([read])], PLUGIN_NAME).scopes.size).toBe(0)
    expect(deriveVisibleState([ours([read])], PLUGIN_NAME).scopes.size).toBe(0)
  })
})
