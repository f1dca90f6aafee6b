// Validation of added roots: every rule with its stable code, the order the rules are checked in,
// aliases, what a successful addition records, and re-recording a root that now leads elsewhere.
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { TempTree } from '@dsh/testkit'
import { rootsTree, registryOf } from './support/registry.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    return error instanceof Error && 'code' in error ? String(error.code) : `unexpected: ${String(error)}`
  }
  return 'no error'
}

describe('adding a root', () => {
  it('records id, path as given, canonical path, alias and time, keyed by the canonical primary root', async () => {
    tree = await rootsTree()
    symlinkSync(tree.path('lib'), tree.path('lib-link'))
    const registry = registryOf(tree)
    const added = await registry.add(tree.path('primary'), `${tree.path('lib-link')}/`, { alias: 'shared lib' })
    expect(added).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      ordinal: 1,
      path: tree.path('lib-link'),
      recordedPath: tree.path('lib'),
      alias: 'shared lib',
      addedAt: '2026-12-01T10:00:00.000Z',
      origin: 'registry',
      state: 'available',
    })
    const stored: unknown = JSON.parse(readFileSync(tree.path('home/workspace-roots.json'), 'utf8'))
    expect(stored).toEqual({ version: 1, primaries: { [tree.path('primary')]: { roots: [{ id: added.id, path: tree.path('lib-link'), recordedPath: tree.path('lib'), alias: 'shared lib', addedAt: '2026-12-01T10:00:00.000Z' }] } } })
    expect(registry.list(tree.path('primary')).roots).toEqual([added])
    expect(registry.list(tree.path('other')).roots).toEqual([])
  })

  it('refuses each rule with its code', async () => {
    tree = await rootsTree({ 'file.txt': 'x', 'lib/inner/': null, 'outer/': null })
    const registry = registryOf(tree)
    const primary = tree.path('primary')
    await registry.add(primary, tree.path('lib'))
    const cases: [string, string][] = [
      ['lib', 'not-absolute'],
      ['./lib', 'not-absolute'],
      ['', 'not-absolute'],
      [tree.path('nope'), 'missing'],
      [tree.path('file.txt'), 'not-a-directory'],
      [primary, 'equals-primary'],
      [`${primary}/src`, 'primary-overlap'],
      [tree.root, 'primary-overlap'],
      [tree.path('lib'), 'duplicate'],
      [tree.path('lib/inner'), 'nested'],
    ]
    for (const [path, code] of cases) expect([path, await codeOf(registry.add(primary, path))]).toEqual([path, code])
    await registry.add(primary, tree.path('outer'))
    mkdirSync(tree.path('outer-parent/outer-child'), { recursive: true })
    await registry.add(primary, tree.path('outer-parent/outer-child'))
    expect(await codeOf(registry.add(primary, tree.path('outer-parent')))).toBe('nested')
    expect(registry.list(primary).roots.map((root) => root.path)).toEqual([tree.path('lib'), tree.path('outer'), tree.path('outer-parent/outer-child')])
  })

  it('checks the rules in a fixed order', async () => {
    tree = await rootsTree({ 'primary/notes.txt': 'x', 'lib/data.txt': 'x' })
    const registry = registryOf(tree)
    const primary = tree.path('primary')
    await registry.add(primary, tree.path('lib'))
    // relative beats missing; missing beats overlap; not-a-directory beats overlap and nesting
    expect(await codeOf(registry.add(primary, 'does/not/exist'))).toBe('not-absolute')
    expect(await codeOf(registry.add(primary, `${primary}/gone`))).toBe('missing')
    expect(await codeOf(registry.add(primary, `${primary}/notes.txt`))).toBe('not-a-directory')
    expect(await codeOf(registry.add(primary, tree.path('lib/data.txt')))).toBe('not-a-directory')
    // a link to the primary root is the primary root (canonical comparison), not a new directory
    symlinkSync(primary, tree.path('primary-link'))
    expect(await codeOf(registry.add(primary, tree.path('primary-link')))).toBe('equals-primary')
    // the same directory under another name is a duplicate, not a nesting
    symlinkSync(tree.path('lib'), tree.path('lib-again'))
    expect(await codeOf(registry.add(primary, tree.path('lib-again')))).toBe('duplicate')
  })

  it('compares whole path components: a sibling sharing a prefix is neither nested nor overlapping', async () => {
    tree = await rootsTree({ 'primary-x/': null, 'lib-2/': null })
    const registry = registryOf(tree)
    await registry.add(tree.path('primary'), tree.path('lib'))
    await expect(registry.add(tree.path('primary'), tree.path('primary-x'))).resolves.toMatchObject({ state: 'available' })
    await expect(registry.add(tree.path('primary'), tree.path('lib-2'))).resolves.toMatchObject({ state: 'available' })
  })

  it('refuses blank, over-long and control-character aliases', async () => {
    tree = await rootsTree()
    const registry = registryOf(tree)
    for (const alias of ['  ', 'x'.repeat(121), 'a\u001b[31mb', 'tab\there']) expect(await codeOf(registry.add(tree.path('primary'), tree.path('lib'), { alias }))).toBe('invalid-alias')
    await expect(registry.add(tree.path('primary'), tree.path('lib'), { alias: 'x'.repeat(120) })).resolves.toMatchObject({ alias: 'x'.repeat(120) })
  })

  it('re-adding the path of a root that now leads elsewhere records the new target under the same id', async () => {
    tree = await rootsTree({ 'lib-v2/': null })
    symlinkSync(tree.path('lib'), tree.path('current'))
    const registry = registryOf(tree)
    const first = await registry.add(tree.path('primary'), tree.path('current'), { alias: 'cur' })
    rmSync(tree.path('current'))
    symlinkSync(tree.path('lib-v2'), tree.path('current'))
    expect(registry.list(tree.path('primary')).roots[0]).toMatchObject({ state: 'redirected' })
    const again = await registry.add(tree.path('primary'), tree.path('current'))
    expect(again).toMatchObject({ id: first.id, ordinal: 1, recordedPath: tree.path('lib-v2'), alias: 'cur', state: 'available' })
    expect(registry.list(tree.path('primary')).roots).toHaveLength(1)
  })

  it('names the conflicting root in its message', async () => {
    tree = await rootsTree({ 'lib/inner/': null })
    writeFileSync(tree.path('home/.keep'), '')
    const registry = registryOf(tree)
    await registry.add(tree.path('primary'), tree.path('lib'))
    await expect(registry.add(tree.path('primary'), tree.path('lib/inner'))).rejects.toThrow(`${tree.path('lib/inner')} is inside additional root 1 (${tree.path('lib')})`)
    await expect(registry.add(tree.path('primary'), `${tree.path('primary')}/src`)).rejects.toThrow(`is inside the primary root ${tree.path('primary')}`)
  })
})
