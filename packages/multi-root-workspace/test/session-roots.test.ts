// The roots of one session through the service: registered and session-only roots in one
// listing, references by number, path and id, aliases, session-only additions validated like
// registered ones and never persisted, and change events.
import { existsSync, readFileSync, renameSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { WorkspaceRootsListing } from '@dsh/contracts'
import type { TempTree } from '@dsh/testkit'
import { RootsService } from '../src/index.ts'
import { rootsTree, registryOf } from './support/registry.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

function sessionOf(id = 's1', cwd = 'primary') {
  const service = new RootsService({ registry: registryOf(tree) })
  const view = { header: { type: 'session' as const, version: 1 as const, id, createdAt: '', cwd: tree.path(cwd), delegationDepth: 0 }, events: [], surface: [], replaceGeneration: 0, eventBySeq: () => undefined }
  return { service, roots: service.session(view), view }
}

const summary = (listing: WorkspaceRootsListing) => listing.roots.map((root) => [root.ordinal, root.origin, root.path, root.alias ?? '', root.state])

describe('session roots', () => {
  it('lists registered roots, then session-only ones; session-only ones are validated and never persisted', async () => {
    tree = await rootsTree({ 'third/': null })
    const { roots } = sessionOf()
    await roots.add(tree.path('lib'), { alias: 'lib' })
    await roots.addForSession(tree.path('other'))
    await expect(roots.addForSession(tree.path('lib'))).rejects.toMatchObject({ code: 'duplicate' })
    await expect(roots.addForSession(`${tree.path('primary')}/src`)).rejects.toMatchObject({ code: 'primary-overlap' })
    await expect(roots.add(tree.path('other'))).rejects.toMatchObject({ code: 'duplicate' })
    expect(summary(roots.list())).toEqual([
      [1, 'registry', tree.path('lib'), 'lib', 'available'],
      [2, 'session', tree.path('other'), '', 'available'],
    ])
    expect(readFileSync(tree.path('home/workspace-roots.json'), 'utf8')).not.toContain(tree.path('other'))
    expect(roots.writableRoots()).toEqual([tree.path('lib'), tree.path('other')])
    // Another session of the same primary root sees the registered root only.
    expect(summary(sessionOf('s2').roots.list())).toEqual([[1, 'registry', tree.path('lib'), 'lib', 'available']])
  })

  it('resolves references by number, path (also ~) and id, and refuses bad ones', async () => {
    tree = await rootsTree({ 'third/': null })
    const { roots } = sessionOf()
    const lib = await roots.add(tree.path('lib'))
    await roots.add(tree.path('other'))
    await roots.addForSession(tree.path('third'))
    await expect(roots.remove('9')).rejects.toMatchObject({ code: 'not-found', message: 'there is no additional root 9 (there are 3)' })
    await expect(roots.remove('../lib')).rejects.toMatchObject({ code: 'invalid-ref' })
    await expect(roots.remove('  ')).rejects.toMatchObject({ code: 'invalid-ref' })
    await expect(roots.remove('no-such-id')).rejects.toMatchObject({ code: 'not-found' })
    await expect(roots.alias(lib.id, 'L')).resolves.toMatchObject({ alias: 'L' })
    await expect(roots.alias(`${tree.path('other')}/`, 'O')).resolves.toMatchObject({ alias: 'O' })
    await expect(roots.alias('3', 'T')).resolves.toMatchObject({ alias: 'T', origin: 'session' })
    await expect(roots.alias('1', undefined)).resolves.not.toHaveProperty('alias')
    await expect(roots.alias('1', '\u0007')).rejects.toMatchObject({ code: 'invalid-alias' })
    await roots.remove('3')
    await roots.remove(tree.path('other'))
    expect(summary(roots.list())).toEqual([[1, 'registry', tree.path('lib'), '', 'available']])
  })

  it('tells listeners when a listing or a mutation finds something changed', async () => {
    tree = await rootsTree()
    const { roots } = sessionOf()
    const seen: string[][] = []
    roots.onChange((listing) => seen.push(listing.roots.map((root) => `${root.path}:${root.state}`)))
    roots.list()
    await roots.add(tree.path('lib'))
    roots.list()
    renameSync(tree.path('lib'), tree.path('lib-gone'))
    roots.list()
    expect(seen).toEqual([[`${tree.path('lib')}:available`], [`${tree.path('lib')}:missing`]])
    expect(existsSync(tree.path('lib'))).toBe(false)
  })

  it('returns the same roots object for the same session view', async () => {
    tree = await rootsTree()
    const { service, roots, view } = sessionOf()
    expect(service.session(view)).toBe(roots)
    expect(roots.primary).toBe(tree.path('primary'))
  })
})
