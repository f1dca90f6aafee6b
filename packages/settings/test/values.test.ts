// Effective values: base layer, file overrides field by field, schema defaults, registration rules.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { isSettingsError, SettingsError } from '../src/index.ts'
import { GUARD_BASE, GuardSchema, sandbox, type Sandbox } from './helpers.ts'

let box: Sandbox
beforeEach(async () => {
  box = await sandbox()
})
afterEach(() => box.dispose())

describe('effective values', () => {
  it('are the base values when there is no settings file', () => {
    const { store, lines } = box.open()
    const scope = store.register('maintainer-doc-guard', GuardSchema, { base: GUARD_BASE })
    expect(scope.get()).toEqual(GUARD_BASE)
    expect(lines).toEqual([])
  })

  it('take each field from the file when present, from the base otherwise', async () => {
    await box.tree.write({ 'home/settings.yaml': 'maintainer-doc-guard:\n  nudgeAfter: 9\n  docsDir: notes\n' })
    const { store } = box.open()
    const scope = store.register('maintainer-doc-guard', GuardSchema, { base: GUARD_BASE })
    expect(scope.get()).toEqual({ nudgeAfter: 9, dryRun: false, docsDir: 'notes' })
  })

  it('fall back to schema defaults for fields neither layer sets', () => {
    const { store } = box.open()
    const schema = z.object({ level: z.enum(['low', 'high']).default('low'), limit: z.number() })
    expect(store.register('tuning', schema, { base: { limit: 4 } }).get()).toEqual({ level: 'low', limit: 4 })
  })

  it('treat an empty section or an empty file as "no overrides"', async () => {
    await box.tree.write({ 'home/settings.yaml': 'maintainer-doc-guard:\n' })
    const { store, lines } = box.open()
    expect(store.register('maintainer-doc-guard', GuardSchema, { base: GUARD_BASE }).get()).toEqual(GUARD_BASE)
    expect(lines).toEqual([])
  })

  it('are frozen, so callers cannot mutate the shared value', () => {
    const { store } = box.open()
    const scope = store.register('maintainer-doc-guard', GuardSchema, { base: GUARD_BASE })
    expect(Object.isFrozen(scope.get())).toBe(true)
  })

  it('use the base and log one line when the file section is invalid at startup', async () => {
    await box.tree.write({ 'home/settings.yaml': 'maintainer-doc-guard:\n  dryRun: maybe\n' })
    const { store, lines } = box.open()
    expect(store.register('maintainer-doc-guard', GuardSchema, { base: GUARD_BASE }).get()).toEqual(GUARD_BASE)
    expect(lines).toEqual(['settings.yaml: maintainer-doc-guard.dryRun: expected boolean, received string; using base values'])
  })
})

describe('registration', () => {
  it.each(['Guard', 'doc_guard', '-guard', 'guard-', 'doc--guard', '', '9lives', 'doc guard'])(
    'rejects the namespace %j with SETTINGS_INVALID_NAMESPACE',
    (name) => {
      const { store } = box.open()
      let thrown: unknown
      try {
        store.register(name, GuardSchema, { base: GUARD_BASE })
      } catch (error) {
        // Caught to inspect the typed error below.
        thrown = error
      }
      expect(thrown).toBeInstanceOf(SettingsError)
      expect(isSettingsError(thrown, 'SETTINGS_INVALID_NAMESPACE')).toBe(true)
    },
  )

  it('accepts kebab-case names', () => {
    const { store } = box.open()
    for (const name of ['guard', 'maintainer-doc-guard', 'mcp-2', 'a1-b2-c3']) {
      expect(() => store.register(name, GuardSchema, { base: GUARD_BASE })).not.toThrow()
    }
  })

  it('refuses a second live registration of a namespace, and allows it after dispose', () => {
    const { store } = box.open()
    const first = store.register('guard', GuardSchema, { base: GUARD_BASE })
    expect(() => store.register('guard', GuardSchema, { base: GUARD_BASE })).toThrow(expect.objectContaining({ code: 'SETTINGS_NAMESPACE_TAKEN' }))
    first.dispose()
    expect(store.register('guard', GuardSchema, { base: { ...GUARD_BASE, nudgeAfter: 7 } }).get().nudgeAfter).toBe(7)
  })

  it('throws SETTINGS_INVALID_BASE when neither the file nor the base yields a valid value', () => {
    const { store } = box.open()
    expect(() => store.register('guard', GuardSchema, { base: { nudgeAfter: 1 } })).toThrow(
      expect.objectContaining({ code: 'SETTINGS_INVALID_BASE' }),
    )
  })

  it('takes required fields from the file even when the base lacks them', async () => {
    await box.tree.write({ 'home/settings.yaml': 'guard:\n  dryRun: true\n  docsDir: d\n' })
    const { store } = box.open()
    expect(store.register('guard', GuardSchema, { base: { nudgeAfter: 1 } }).get()).toEqual({ nudgeAfter: 1, dryRun: true, docsDir: 'd' })
  })

  it('throws SETTINGS_CLOSED after close', () => {
    const { store } = box.open()
    store.close()
    expect(() => store.register('guard', GuardSchema, { base: GUARD_BASE })).toThrow(expect.objectContaining({ code: 'SETTINGS_CLOSED' }))
  })
})
