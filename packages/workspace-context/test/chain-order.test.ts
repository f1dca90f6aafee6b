// Ancestors travel with their leaf (issue 8 item 3): when a touch re-arms scopes (after
// compaction) or reaches new ones, a nested file never arrives before the broader files on its
// chain; they come in the same message, root first, or — when the budget cannot hold them
// together — the broader ones first and the nested one at the next touch.
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { renderChangeBatch } from '../src/render.ts'
import { projectScope, userGlobalScope, type ScopeRef } from '../src/scope-key.ts'
import { changesOf, instructionMessages, textOf } from './support/fixtures.ts'
import { Rig, type RigAgent } from './support/rig.ts'

const UI = `UI rules. ${'u'.repeat(300)}\n`
const API = `API rules. ${'a'.repeat(300)}\n`
const FILES = { '/repo/.git/HEAD': 'r', '/repo/ui-v2/AGENTS.md': UI, '/repo/ui-v2/src/api/AGENTS.md': API, '/repo/ui-v2/src/api/x.ts': 'x', '/repo/ui-v2/y.ts': 'y' }
const set = (scope: ScopeRef, path: string, size: number) => ({ action: 'set' as const, scope, path, content: 'x'.repeat(size), digest: path })
const api = (rig: Rig, agent: RigAgent) => rig.step(agent, { tools: [{ touched: ['/repo/ui-v2/src/api/x.ts'] }] })

describe('ancestors travel with their leaf', () => {
  it('after compaction, a touch of the leaf re-sends its re-armed ancestor in the same message, root first', async () => {
    const rig = await new Rig({ files: FILES }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    await rig.step(agent, { tools: [{ touched: ['/repo/ui-v2/y.ts'] }] })
    await api(rig, agent)
    rig.compact(agent)
    await rig.step(agent, { prompt: 'again' })
    const before = instructionMessages(agent.session).length
    await api(rig, agent)
    const added = instructionMessages(agent.session).slice(before)
    expect(added).toHaveLength(1)
    expect(changesOf(added)).toEqual([
      { action: 'set', path: 'ui-v2/AGENTS.md' },
      { action: 'set', path: 'ui-v2/src/api/AGENTS.md' },
    ])
  })

  it('when the budget cannot hold both, the ancestor comes first and the leaf at the next touch (never the other way round)', async () => {
    // Each file fits on its own; both together do not (and no share cut with maxFileShare 1).
    const rig = await new Rig({ files: FILES, config: { maxBytes: 900, maxFileShare: 1 } }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    await api(rig, agent)
    const first = instructionMessages(agent.session).at(-1)!
    expect(changesOf([first])).toEqual([{ action: 'set', path: 'ui-v2/AGENTS.md' }])
    expect(textOf(first)).toContain('omitted ui-v2/src/api/AGENTS.md (312 bytes)')
    expect(textOf(first)).not.toContain('API rules.')
    await api(rig, agent)
    expect(changesOf(instructionMessages(agent.session).slice(-1))).toEqual([{ action: 'set', path: 'ui-v2/src/api/AGENTS.md' }])
  })

  it('a batch keeps no newly reached scope whose broader newly reached scope the budget left out', () => {
    const items = [set(userGlobalScope(), '~/.dsh/AGENTS.md', 500), set(projectScope('a', 'base'), 'a/AGENTS.md', 100), set(projectScope('a', 'local'), 'a/AGENTS.local.md', 100), set(projectScope('b', 'base'), 'b/AGENTS.md', 100)]
    // The user-global file is broader than everything: without it nothing below may go.
    expect(renderChangeBatch(items, 900).changes.map((c) => c.path)).toEqual(['~/.dsh/AGENTS.md'])
    // A directory's local overlay never goes without its base file: room for the base and a notice only.
    const pair = items.slice(1, 3)
    const room = Buffer.byteLength(renderChangeBatch(pair.slice(0, 1), 65536).text) + 160
    const tight = renderChangeBatch(pair, room)
    expect(tight.changes.map((c) => c.path)).toEqual(['a/AGENTS.md'])
    expect(tight.text).toContain('omitted a/AGENTS.local.md (100 bytes)')
  })

  it('property: every kept new scope has every broader new scope of its chain kept, and the batch fits', () => {
    const dirs = ['.', 'a', 'a/b', 'a/b/c', 'd'] as const
    const item = fc.record({ dir: fc.constantFrom(...dirs), local: fc.boolean(), size: fc.integer({ min: 0, max: 600 }) })
    fc.assert(
      fc.property(fc.uniqueArray(item, { selector: (i) => `${i.dir}|${i.local}`, minLength: 1, maxLength: 8 }), fc.integer({ min: 100, max: 4000 }), (specs, maxBytes) => {
        const items = specs.map((spec) => {
          const scope = projectScope(spec.dir, spec.local ? 'local' : 'base')
          return { action: 'set' as const, scope, path: `${spec.dir}/${spec.local ? 'AGENTS.local.md' : 'AGENTS.md'}`, content: 'y'.repeat(spec.size), digest: scope.key }
        })
        const rendered = renderChangeBatch(items, maxBytes)
        expect(Buffer.byteLength(rendered.text)).toBeLessThanOrEqual(maxBytes)
        const kept = new Set(rendered.changes.map((c) => c.scope))
        for (const a of items) {
          for (const b of items) {
            const broader = a.scope.kind === 'project' && b.scope.kind === 'project' && (a.scope.dir === '.' || b.scope.dir === a.scope.dir || b.scope.dir.startsWith(`${a.scope.dir}/`)) && (a.scope.dir !== b.scope.dir || (a.scope.slot === 'base' && b.scope.slot === 'local'))
            if (broader && a !== b && kept.has(b.scope.key)) expect(kept.has(a.scope.key), `${b.path} kept without ${a.path}`).toBe(true)
          }
        }
      }),
      { numRuns: 300 },
    )
  })
})
