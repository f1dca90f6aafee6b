// The cordis service: ctx.settings is provided, scopes follow the calling fiber, disposing the
// service fiber closes the watcher.
import { readFile } from 'node:fs/promises'
import { Context } from '@deepseek-ai/cordis'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SettingsPlugin, SettingsStore } from '../src/index.ts'
import { GUARD_BASE, GuardSchema, replaceFile, sandbox, type Sandbox } from './helpers.ts'

// A hang guard for file-watch reloads, generous for a loaded machine; a passing case returns at once.
const WAIT = { timeout: 20_000, interval: 10 }

let box: Sandbox
let file: string
let lines: string[]
beforeEach(async () => {
  box = await sandbox({ 'home/settings.yaml': 'guard:\n  nudgeAfter: 5\n' })
  file = box.tree.path('home/settings.yaml')
  lines = []
})
afterEach(async () => {
  vi.restoreAllMocks()
  await box.dispose()
})

const config = () => ({ file, logger: (line: string) => void lines.push(line), debounceMs: 20 })

describe('SettingsPlugin', () => {
  it('provides ctx.settings backed by the file, with hot reload and updates', async () => {
    const root = new Context()
    const fiber = await root.plugin(SettingsPlugin, config())
    const scope = root.settings.register('guard', GuardSchema, { base: GUARD_BASE })
    expect(scope.get().nudgeAfter).toBe(5)

    await replaceFile(file, 'guard:\n  nudgeAfter: 6\n')
    await vi.waitFor(() => expect(scope.get().nudgeAfter).toBe(6), WAIT)

    await scope.update({ dryRun: true })
    expect(await readFile(file, 'utf8')).toBe('guard:\n  nudgeAfter: 6\n  dryRun: true\n')
    await fiber.dispose()
  })

  it('disposes a dependent plugin’s scope when that plugin unloads', async () => {
    const root = new Context()
    const fiber = await root.plugin(SettingsPlugin, config())
    let seen: number | undefined
    const dependent = await root.plugin({
      name: 'guard-plugin',
      inject: ['settings'],
      apply(ctx: Context) {
        seen = ctx.settings.register('guard', GuardSchema, { base: GUARD_BASE }).get().nudgeAfter
      },
    })
    expect(seen).toBe(5)
    expect(() => root.settings.register('guard', GuardSchema, { base: GUARD_BASE })).toThrow(
      expect.objectContaining({ code: 'SETTINGS_NAMESPACE_TAKEN' }),
    )
    await dependent.dispose()
    expect(root.settings.register('guard', GuardSchema, { base: GUARD_BASE }).get().nudgeAfter).toBe(5)
    await fiber.dispose()
  })

  it('closes the store (and its watcher) when the service fiber is disposed, unloading dependents', async () => {
    const close = vi.spyOn(SettingsStore.prototype, 'close')
    const root = new Context()
    const fiber = await root.plugin(SettingsPlugin, config())
    const dependentState: string[] = []
    await root.plugin({
      name: 'guard-plugin',
      inject: ['settings'],
      apply(ctx: Context) {
        ctx.settings.register('guard', GuardSchema, { base: GUARD_BASE })
        dependentState.push('loaded')
        ctx.effect(() => () => void dependentState.push('unloaded'))
      },
    })
    await fiber.dispose()
    expect(close).toHaveBeenCalledTimes(1)
    expect(dependentState).toEqual(['loaded', 'unloaded'])
    expect(root.get('settings')).toBeUndefined()
  })

  it('lets a fresh service instance re-register the namespaces after a restart', async () => {
    const root = new Context()
    const first = await root.plugin(SettingsPlugin, config())
    const loads: number[] = []
    await root.plugin({
      name: 'guard-plugin',
      inject: ['settings'],
      apply(ctx: Context) {
        loads.push(ctx.settings.register('guard', GuardSchema, { base: GUARD_BASE }).get().nudgeAfter)
      },
    })
    await first.dispose()
    const second = await root.plugin(SettingsPlugin, config())
    await vi.waitFor(() => expect(loads).toEqual([5, 5]), WAIT)
    await second.dispose()
    expect(lines).toEqual([])
  })
})

describe('SettingsPlugin config', () => {
  it('rejects a relative file path with a ValidationError naming the field', async () => {
    const root = new Context()
    await expect(root.plugin(SettingsPlugin, { file: 'settings.yaml', logger: () => {} })).rejects.toThrow(/absolute path \(at file\)/)
  })
})
