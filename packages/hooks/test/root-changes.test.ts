// RootChanged's diff of two roots listings: one change per root added, removed or whose state
// changed, nothing else (property-based over random listings), and the fields a hook reads.
import { describe, expect, it } from 'vitest'
import { assert, constantFrom, property, record, uniqueArray } from 'fast-check'
import type { WorkspaceRoot, WorkspaceRootsListing, WorkspaceRootState } from '@dsh/contracts'
import { rootChanges } from '../src/root-changes.ts'

const states: readonly WorkspaceRootState[] = ['available', 'missing', 'redirected', 'invalid']

const root = (id: string, state: WorkspaceRootState, ordinal = 1): WorkspaceRoot => ({ id, ordinal, path: `/roots/${id}`, recordedPath: `/roots/${id}`, addedAt: '2026-12-01T00:00:00.000Z', origin: 'registry', state })
const listing = (roots: readonly WorkspaceRoot[]): WorkspaceRootsListing => ({ primary: '/repo', roots })

/** A listing: distinct ids from a small pool, each with a state. */
const listings = uniqueArray(record({ id: constantFrom('a', 'b', 'c', 'd', 'e'), state: constantFrom(...states) }), { selector: (entry) => entry.id }).map((entries) => listing(entries.map((entry, index) => root(entry.id, entry.state, index + 1))))

describe('rootChanges', () => {
  it('reports exactly the roots added, removed or with a new state, once each', () => {
    assert(
      property(listings, listings, (before, after) => {
        const changes = rootChanges(before, after)
        const old = new Map(before.roots.map((r) => [r.id, r.state]))
        const now = new Map(after.roots.map((r) => [r.id, r.state]))
        const expected = new Map<string, string>()
        for (const [id, state] of now) if (!old.has(id)) expected.set(id, 'added')
        else if (old.get(id) !== state) expected.set(id, state)
        for (const id of old.keys()) if (!now.has(id)) expected.set(id, 'removed')
        expect(new Map(changes.map((change) => [change.root.id, change.change]))).toEqual(expected)
        expect(changes).toHaveLength(expected.size)
        expect(rootChanges(after, after)).toEqual([])
      }),
    )
  })

  it('gives the previous state and the root as it is now (as it was, for a removed one)', () => {
    const before = listing([root('a', 'available'), root('b', 'available')])
    const after = listing([root('a', 'missing'), root('c', 'available', 2)])
    expect(rootChanges(before, after)).toEqual([
      { change: 'missing', previousState: 'available', root: { id: 'a', path: '/roots/a', state: 'missing', origin: 'registry' } },
      { change: 'added', root: { id: 'c', path: '/roots/c', state: 'available', origin: 'registry' } },
      { change: 'removed', previousState: 'available', root: { id: 'b', path: '/roots/b', state: 'available', origin: 'registry' } },
    ])
  })
})
