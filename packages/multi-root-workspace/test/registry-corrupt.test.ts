// A registry file that cannot be read never stops the harness: listings are empty and name the
// problem with repair advice, every mutation is refused with storage-unavailable, and the file is
// never overwritten.
import { readFileSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { TempTree } from '@dsh/testkit'
import { rootsTree, registryOf } from './support/registry.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

const file = () => tree.path('home/workspace-roots.json')

describe('an unreadable registry', () => {
  const cases: [string, string, RegExp][] = [
    ['not JSON', '{"version": 1, "primaries": {', /is not valid JSON \(/],
    ['no version', JSON.stringify({ primaries: {} }), /has no supported format version/],
    ['a list instead of an object', '[]', /is not a JSON object/],
    ['a malformed primary entry', JSON.stringify({ version: 1, primaries: { '/x': { roots: 'no' } } }), /has no "roots" list for \/x/],
  ]
  for (const [name, content, problem] of cases) {
    it(`${name}: lists nothing with repair advice, refuses writes, keeps the file`, async () => {
      tree = await rootsTree()
      writeFileSync(file(), content)
      const registry = registryOf(tree)
      const listing = registry.list(tree.path('primary'))
      expect(listing.roots).toEqual([])
      expect(listing.problem).toMatch(problem)
      expect(listing.problem).toContain(`dsh leaves it untouched: fix it, or move it aside (mv ${file()} ${file()}.bad) and add the roots again`)
      await expect(registry.add(tree.path('primary'), tree.path('lib'))).rejects.toMatchObject({ code: 'storage-unavailable', message: listing.problem })
      await expect(registry.remove(tree.path('primary'), { ordinal: 1, id: 'x', path: '/x' })).rejects.toMatchObject({ code: 'storage-unavailable' })
      expect(readFileSync(file(), 'utf8')).toBe(content)
    })
  }

  it('a file from a newer dsh says so and is left alone', async () => {
    tree = await rootsTree()
    const content = JSON.stringify({ version: 2, primaries: {} })
    writeFileSync(file(), content)
    const registry = registryOf(tree)
    expect(registry.list(tree.path('primary')).problem).toBe(`the workspace roots registry ${file()} was written by a newer dsh (format 2); use that version, or move the file aside to start over`)
    await expect(registry.add(tree.path('primary'), tree.path('lib'))).rejects.toMatchObject({ code: 'storage-unavailable' })
    expect(readFileSync(file(), 'utf8')).toBe(content)
  })

  it('works again once the file is moved aside', async () => {
    tree = await rootsTree()
    writeFileSync(file(), 'garbage')
    const registry = registryOf(tree)
    await expect(registry.add(tree.path('primary'), tree.path('lib'))).rejects.toMatchObject({ code: 'storage-unavailable' })
    writeFileSync(`${file()}.bad`, readFileSync(file()))
    writeFileSync(file(), JSON.stringify({ version: 1, primaries: {} }))
    await expect(registry.add(tree.path('primary'), tree.path('lib'))).resolves.toMatchObject({ state: 'available' })
  })
})
