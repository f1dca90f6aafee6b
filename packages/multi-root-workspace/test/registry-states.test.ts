// Root states re-checked at every listing: a re-pointed link is redirected (and never granted), a
// deleted root is missing and comes back, malformed and duplicate-id records are invalid but kept
// and removable by number, and nothing of another primary root is touched.
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { TempTree } from '@dsh/testkit'
import { rootsTree, registryOf } from './support/registry.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

const states = (roots: readonly { state: string; detail?: string }[]) => roots.map((root) => [root.state, root.detail ?? ''])

describe('root states', () => {
  it('a root whose link is re-pointed is redirected until the path is added again', async () => {
    tree = await rootsTree({ 'elsewhere/': null })
    symlinkSync(tree.path('lib'), tree.path('link'))
    const registry = registryOf(tree)
    await registry.add(tree.path('primary'), tree.path('link'))
    expect(states(registry.list(tree.path('primary')).roots)).toEqual([['available', '']])
    rmSync(tree.path('link'))
    symlinkSync(tree.path('elsewhere'), tree.path('link'))
    expect(states(registry.list(tree.path('primary')).roots)).toEqual([['redirected', `it now leads to ${tree.path('elsewhere')} instead of ${tree.path('lib')}; add it again to accept the new target`]])
    rmSync(tree.path('link'))
    symlinkSync(tree.path('lib'), tree.path('link'))
    expect(states(registry.list(tree.path('primary')).roots)).toEqual([['available', '']])
  })

  it('a deleted root is missing and available again once it is back; a file in its place is missing too', async () => {
    tree = await rootsTree()
    const registry = registryOf(tree)
    await registry.add(tree.path('primary'), tree.path('lib'))
    renameSync(tree.path('lib'), tree.path('lib-away'))
    expect(states(registry.list(tree.path('primary')).roots)).toEqual([['missing', 'no directory exists there any more']])
    writeFileSync(tree.path('lib'), 'not a directory')
    expect(states(registry.list(tree.path('primary')).roots)).toEqual([['missing', 'it is no longer a directory']])
    rmSync(tree.path('lib'))
    renameSync(tree.path('lib-away'), tree.path('lib'))
    expect(states(registry.list(tree.path('primary')).roots)).toEqual([['available', '']])
  })

  it('a root reached through a link is missing while the link dangles and available once its target is back', async () => {
    tree = await rootsTree({ 'real-a/': null, 'real-b/': null })
    symlinkSync(tree.path('real-a'), tree.path('lib-link'))
    const registry = registryOf(tree)
    await registry.add(tree.path('primary'), tree.path('lib-link'))
    rmSync(tree.path('real-a'), { recursive: true })
    expect(registry.list(tree.path('primary')).roots[0]?.state).toBe('missing')
    mkdirSync(tree.path('real-a'))
    expect(registry.list(tree.path('primary')).roots[0]?.state).toBe('available')
  })

  it('keeps malformed and duplicate-id records as invalid, removable by number, and writes them back as they were', async () => {
    tree = await rootsTree({ 'third/': null })
    const primary = tree.path('primary')
    const legacy = { id: 'legacy', path: tree.path('lib'), addedAt: '2026-01-01T00:00:00.000Z', note: 'kept' }
    const twinA = { id: 'twin', path: tree.path('other'), recordedPath: tree.path('other'), addedAt: 'x' }
    const twinB = { id: 'twin', path: tree.path('third'), recordedPath: tree.path('third'), addedAt: 'y' }
    // Other primary roots are written back as read, whatever their keys (a computed key is an own property).
    const foreign = { [tree.path('elsewhere')]: { roots: [{ whatever: true }] }, ['__proto__']: { roots: ['kept too'] } }
    writeFileSync(tree.path('home/workspace-roots.json'), JSON.stringify({ version: 1, primaries: { [primary]: { roots: [legacy, 'junk', twinA, twinB] }, ...foreign } }))
    const registry = registryOf(tree)
    const listed = registry.list(primary).roots
    expect(listed.map((root) => [root.ordinal, root.id, root.state])).toEqual([
      [1, 'legacy', 'invalid'],
      [2, '', 'invalid'],
      [3, 'twin', 'invalid'],
      [4, 'twin', 'invalid'],
    ])
    expect(listed[0]?.detail).toBe('the stored record is invalid: it was stored without its canonical path; remove it')
    expect(listed[2]?.detail).toBe('the stored record is invalid: its id twin is shared with another record; remove it')
    await registry.remove(primary, { ordinal: 2, id: '', path: '(no path)' })
    const stored: unknown = JSON.parse(readFileSync(tree.path('home/workspace-roots.json'), 'utf8'))
    expect(stored).toEqual({ version: 1, primaries: { [primary]: { roots: [legacy, twinA, twinB] }, ...foreign } })
  })

  it('a stale reference (the registry changed since it was listed) removes nothing', async () => {
    tree = await rootsTree()
    const registry = registryOf(tree)
    const lib = await registry.add(tree.path('primary'), tree.path('lib'))
    await registry.add(tree.path('primary'), tree.path('other'))
    await registry.remove(tree.path('primary'), lib)
    await expect(registry.remove(tree.path('primary'), lib)).rejects.toMatchObject({ code: 'not-found' })
    expect(registry.list(tree.path('primary')).roots.map((root) => root.path)).toEqual([tree.path('other')])
  })
})
