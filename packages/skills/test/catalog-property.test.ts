// Property: any sequence of add / edit / remove / touch / resume / compact, with a catalog step
// after each, delivers each skill at most once while visible, never loses one silently (every
// current skill is listed or named as left out; every gone one is withdrawn), and keeps the
// listed lines within the byte budget. The delivered state is folded from a fake session surface
// by the real DeliveredFold, so resume (a new fold) and compaction (a replaced surface) are real;
// the fold's revision changes whenever its state does. A skill added to a catalog the model holds
// exactly gives the same message from itself alone (appendedDelta) as from the whole catalog.
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { SessionEvent, SessionView, UserMessage } from '@dsh/contracts'
import { contentDigest } from '@dsh/workspace-context'
import { appendedDelta, catalogDelta, type CatalogItem } from '../src/catalog-delta.ts'
import { renderCatalog } from '../src/catalog-text.ts'
import { catalogChanges, catalogSource, DeliveredFold } from '../src/delivered.ts'

type Op = { kind: 'add' | 'edit' | 'touch'; key: string; size: number } | { kind: 'remove'; key: string } | { kind: 'resume' } | { kind: 'compact' }

const KEYS = ['deploy', 'review', 'release', 'lint', 'pkg/web:deploy', 'docs', 'bench', 'triage']

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constantFrom('add' as const, 'edit' as const, 'touch' as const), key: fc.constantFrom(...KEYS), size: fc.integer({ min: 1, max: 120 }) }),
  fc.record({ kind: fc.constant('remove' as const), key: fc.constantFrom(...KEYS) }),
  fc.constant({ kind: 'resume' as const }),
  fc.constant({ kind: 'compact' as const }),
)

/** A session view whose surface grows by appends and is replaced by compaction. */
class FakeSession implements SessionView {
  readonly header: SessionView['header'] = { type: 'session', version: 1, id: 's', createdAt: '', cwd: '/w', delegationDepth: 0 }
  events: SessionEvent[] = []
  surface: number[] = []
  replaceGeneration = 0
  append(message: UserMessage): void {
    const seq = this.events.length + 1
    const event: SessionEvent = { type: 'user/message', seq, time: '', data: { message } }
    this.events.push(event)
    this.surface.push(seq)
  }
  compact(): void {
    this.surface = []
    this.replaceGeneration += 1
  }
  eventBySeq(seq: number): SessionEvent | undefined {
    return this.events[seq - 1]
  }
}

const item = (key: string, text: string): CatalogItem => {
  const line = `- ${key}: ${text}`
  return { key, line, digest: contentDigest(line), bytes: Buffer.byteLength(line) + 1 }
}

describe('catalog deltas (property)', () => {
  it('delivers each skill at most once while visible, never loses one silently, stays in budget', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), fc.integer({ min: 0, max: 400 }), (ops, maxBytes) => {
        const session = new FakeSession()
        let fold = new DeliveredFold()
        const current = new Map<string, CatalogItem>()
        let version = 0
        // The plugin skips a delta when items and fold revision are those of a step that said nothing: equal revisions must mean equal states.
        let seen: { fold: DeliveredFold; revision: number; state: string } | undefined
        const checkRevision = (): void => {
          const state = JSON.stringify([...fold.current(session)])
          if (seen?.fold === fold && seen.revision === fold.revision) expect(state).toBe(seen.state)
          seen = { fold, revision: fold.revision, state }
        }
        for (const step of ops) {
          // After every step the model holds the catalog exactly; a skill added now is appended to it.
          let appended: CatalogItem | undefined
          if (step.kind === 'add' || step.kind === 'touch') {
            if (!current.has(step.key)) current.set(step.key, (appended = item(step.key, 'x'.repeat(step.size))))
          } else if (step.kind === 'edit') current.set(step.key, item(step.key, `${'y'.repeat(step.size)}${++version}`))
          else if (step.kind === 'remove') current.delete(step.key)
          else if (step.kind === 'resume') fold = new DeliveredFold()
          else session.compact()
          checkRevision()
          if (step.kind === 'compact') expect(fold.lastFoldedId).toBeUndefined()
          const before = fold.current(session)
          const items = [...current.values()]
          const delta = catalogDelta(items, before, maxBytes)
          // The fold keeps the bytes of the lines in effect, as the budget counts them.
          let inEffect = 0
          for (const entry of before.values()) if (!entry.omitted) inEffect += entry.bytes
          expect(fold.listedBytes).toBe(inEffect)
          // A skill appended to a catalog the model holds exactly costs itself alone, with the same message.
          if (appended !== undefined) expect(appendedDelta([appended], before, fold.listedBytes, maxBytes)).toEqual(delta)
          const text = renderCatalog(delta.parts)
          expect(text === '').toBe(delta.changes.length === 0)
          // At most once while visible: nothing already delivered with the same digest is sent again.
          for (const change of delta.changes) if (change.action !== 'remove') expect(before.get(change.key)?.digest).not.toBe(change.digest)
          for (const change of delta.changes) if (change.action === 'remove') expect(before.has(change.key)).toBe(true)
          if (text !== '') {
            const message: UserMessage = { id: `m${session.events.length}`, role: 'user', content: [{ type: 'text', text }], source: catalogSource(delta.changes) }
            expect(catalogChanges(message)).toEqual(delta.changes)
            session.append(message)
            fold.current(session)
            expect(fold.lastFoldedId).toBe(message.id)
            for (const change of delta.changes) {
              if (change.action === 'set') expect(text).toContain(current.get(change.key)?.line)
              else expect(text).toContain(change.key)
            }
          }
          // Never lost silently: every current skill is listed or named; every gone one withdrawn.
          const after = new DeliveredFold().current(session)
          expect(fold.current(session)).toEqual(after)
          checkRevision()
          expect([...after.keys()].toSorted()).toEqual([...current.keys()].toSorted())
          for (const [key, entry] of after) expect(entry.digest).toBe(current.get(key)?.digest)
          let listed = 0
          for (const entry of after.values()) if (!entry.omitted) listed += entry.bytes
          expect(listed).toBeLessThanOrEqual(maxBytes)
          // An unchanged catalog is not sent twice.
          expect(renderCatalog(catalogDelta(items, after, maxBytes).parts)).toBe('')
        }
      }),
      { numRuns: 300 },
    )
  })
})
