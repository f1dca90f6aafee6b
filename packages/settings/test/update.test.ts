// update(): validation, atomic persistence that keeps comments and other namespaces, notification.
import { readdir, readFile } from 'node:fs/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { GUARD_BASE, GuardSchema, sandbox, type Sandbox } from './helpers.ts'

let box: Sandbox
beforeEach(async () => {
  box = await sandbox()
})
afterEach(() => box.dispose())

const COMMENTED = `# dsh settings, edited by hand too
maintainer-doc-guard:
  # how many steps before the drift check
  nudgeAfter: 5 # tuned for flash
  dryRun: false
# nobody registers this one here
other-plugin:
  color: blue
  list: [1, 2]
`

describe('update', () => {
  it('persists, resolves with the new value and notifies watchers with next and previous', async () => {
    const { store, file } = box.open()
    const scope = store.register('maintainer-doc-guard', GuardSchema, { base: GUARD_BASE })
    const seen: Array<[number, number]> = []
    scope.watch((next, previous) => seen.push([next.nudgeAfter, previous.nudgeAfter]))

    await expect(scope.update({ nudgeAfter: 8 })).resolves.toEqual({ ...GUARD_BASE, nudgeAfter: 8 })
    expect(scope.get().nudgeAfter).toBe(8)
    expect(seen).toEqual([[8, 3]])

    const reopened = box.open({ file })
    expect(reopened.store.register('maintainer-doc-guard', GuardSchema, { base: GUARD_BASE }).get().nudgeAfter).toBe(8)
  })

  it('writes only the patched fields, so the other fields keep following the base', async () => {
    const { store, file } = box.open()
    await store.register('maintainer-doc-guard', GuardSchema, { base: GUARD_BASE }).update({ dryRun: true })
    expect(await readFile(file, 'utf8')).toContain('maintainer-doc-guard:\n  dryRun: true\n')
    expect(await readFile(file, 'utf8')).not.toContain('nudgeAfter')
  })

  it('keeps comments, key order and other namespaces (registered or not) intact', async () => {
    await box.tree.write({ 'home/settings.yaml': COMMENTED })
    const { store, file } = box.open()
    const guard = store.register('maintainer-doc-guard', GuardSchema, { base: GUARD_BASE })
    await guard.update({ nudgeAfter: 12, docsDir: 'memory' })
    expect(await readFile(file, 'utf8')).toBe(
      COMMENTED.replace('nudgeAfter: 5 #', 'nudgeAfter: 12 #').replace('  dryRun: false\n', '  dryRun: false\n  docsDir: memory\n'),
    )
  })

  it('keeps a comment the yaml library re-places (after a mapping key) and the values around it', async () => {
    await box.tree.write({ 'home/settings.yaml': 'guard: # inline note\n  dryRun: true\nzeta: {a: 1} # flow\n' })
    const { store, file } = box.open()
    await store.register('guard', GuardSchema, { base: GUARD_BASE }).update({ nudgeAfter: 2 })
    const text = await readFile(file, 'utf8')
    expect(text).toContain('# inline note')
    expect(text).toContain('zeta: {a: 1} # flow')
    expect(text).toMatch(/guard:\n(?:.*\n)*  dryRun: true\n  nudgeAfter: 2\n/)
  })

  it('creates the directory and the file when they do not exist', async () => {
    const { store, file } = box.open({ relative: 'not/yet/there/settings.yaml' })
    await store.register('guard', GuardSchema, { base: GUARD_BASE }).update({ docsDir: 'x' })
    expect(await readFile(file, 'utf8')).toContain('guard:\n  docsDir: x\n')
  })

  it('leaves no temporary file behind', async () => {
    const { store } = box.open()
    const scope = store.register('guard', GuardSchema, { base: GUARD_BASE })
    await scope.update({ nudgeAfter: 1 })
    await scope.update({ nudgeAfter: 2 })
    expect(await readdir(box.tree.path('home'))).toEqual(['settings.yaml'])
  })

  it('serialises concurrent updates so none is lost', async () => {
    const { store, file } = box.open()
    const guard = store.register('guard', GuardSchema, { base: GUARD_BASE })
    const other = store.register('other', z.object({ on: z.boolean() }), { base: { on: false } })
    await Promise.all([guard.update({ nudgeAfter: 4 }), other.update({ on: true }), guard.update({ dryRun: true })])
    const reopened = box.open({ file })
    expect(reopened.store.register('guard', GuardSchema, { base: GUARD_BASE }).get()).toEqual({ ...GUARD_BASE, nudgeAfter: 4, dryRun: true })
    expect(reopened.store.register('other', z.object({ on: z.boolean() })).get()).toEqual({ on: true })
  })

  it('rejects an invalid patch with SETTINGS_INVALID_VALUE, writes nothing and notifies nobody', async () => {
    await box.tree.write({ 'home/settings.yaml': COMMENTED })
    const { store, file } = box.open()
    const scope = store.register('maintainer-doc-guard', GuardSchema, { base: GUARD_BASE })
    let notified = 0
    scope.watch(() => notified++)
    const bad: Record<string, unknown> = { nudgeAfter: 'soon' }
    await expect(scope.update(bad)).rejects.toMatchObject({
      code: 'SETTINGS_INVALID_VALUE',
      message: expect.stringContaining('maintainer-doc-guard.nudgeAfter: expected number, received string'),
    })
    expect(await readFile(file, 'utf8')).toBe(COMMENTED)
    expect(scope.get().nudgeAfter).toBe(5)
    expect(notified).toBe(0)
  })

  it('replaces a section that is not a mapping with the patch', async () => {
    await box.tree.write({ 'home/settings.yaml': 'guard: 5\nkeep: me\n' })
    const { store, file, lines } = box.open()
    const scope = store.register('guard', GuardSchema, { base: GUARD_BASE })
    expect(lines).toEqual(['settings.yaml: guard: expected a mapping of fields, received number; using base values'])
    await expect(scope.update({ dryRun: true })).resolves.toEqual({ ...GUARD_BASE, dryRun: true })
    expect(await readFile(file, 'utf8')).toBe('guard:\n  dryRun: true\nkeep: me\n')
  })

  it('reports a failed write as SETTINGS_WRITE_FAILED and keeps the previous value', async () => {
    // procfs refuses new files even for root, so this fails the same way for every user.
    const { store } = box.open({ file: '/proc/self/dsh-settings-test.yaml' })
    const scope = store.register('guard', GuardSchema, { base: GUARD_BASE })
    await expect(scope.update({ nudgeAfter: 1 })).rejects.toMatchObject({ code: 'SETTINGS_WRITE_FAILED' })
    expect(scope.get()).toEqual(GUARD_BASE)
  })

  it('refuses to overwrite a file that is not valid YAML (SETTINGS_FILE_INVALID)', async () => {
    const broken = 'maintainer-doc-guard:\n  nudgeAfter: [1, 2\n'
    await box.tree.write({ 'home/settings.yaml': broken })
    const { store, file } = box.open()
    const scope = store.register('maintainer-doc-guard', GuardSchema, { base: GUARD_BASE })
    await expect(scope.update({ nudgeAfter: 1 })).rejects.toMatchObject({ code: 'SETTINGS_FILE_INVALID' })
    expect(await readFile(file, 'utf8')).toBe(broken)
  })

  it('refuses to write when the file cannot be read (SETTINGS_FILE_UNAVAILABLE), instead of treating it as missing', async () => {
    await box.tree.write({ 'home/settings.yaml/': null })
    const { store, lines } = box.open()
    const scope = store.register('guard', GuardSchema, { base: GUARD_BASE })
    expect(lines).toEqual([expect.stringMatching(/^settings\.yaml: could not be read \(.*EISDIR.*\); using base values$/)])
    await expect(scope.update({ nudgeAfter: 1 })).rejects.toMatchObject({ code: 'SETTINGS_FILE_UNAVAILABLE' })
  })

  it('rejects with SETTINGS_CLOSED after the scope is disposed or the store closed', async () => {
    const { store } = box.open()
    const scope = store.register('guard', GuardSchema, { base: GUARD_BASE })
    scope.dispose()
    await expect(scope.update({ nudgeAfter: 1 })).rejects.toMatchObject({ code: 'SETTINGS_CLOSED' })
    const again = store.register('guard', GuardSchema, { base: GUARD_BASE })
    store.close()
    await expect(again.update({ nudgeAfter: 1 })).rejects.toMatchObject({ code: 'SETTINGS_CLOSED' })
  })

  it('keeps notifying the other watchers when one throws, and logs the failure', async () => {
    const { store, lines } = box.open()
    const scope = store.register('guard', GuardSchema, { base: GUARD_BASE })
    const seen: number[] = []
    scope.watch(() => {
      throw new Error('boom')
    })
    scope.watch((next) => seen.push(next.nudgeAfter))
    await scope.update({ nudgeAfter: 6 })
    expect(seen).toEqual([6])
    expect(lines).toEqual(['settings: a watcher of guard threw: boom'])
  })
})
