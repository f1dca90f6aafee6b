// Hot reload: external edits reach watchers; invalid edits keep the last good values and log once;
// deleting the file reverts to the base; rewrites that change nothing notify nobody.
import { rm, writeFile } from 'node:fs/promises'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { GUARD_BASE, GuardSchema, pause, replaceFile, sandbox, type Guard, type Sandbox } from './helpers.ts'

// A hang guard for file-watch reloads, generous for a loaded machine; a passing case returns at once.
const WAIT = { timeout: 20_000, interval: 10 }

let box: Sandbox
beforeEach(async () => {
  box = await sandbox({ 'home/settings.yaml': 'maintainer-doc-guard:\n  nudgeAfter: 5\n' })
})
afterEach(() => box.dispose())

function openGuard() {
  const fixture = box.open()
  const scope = fixture.store.register('maintainer-doc-guard', GuardSchema, { base: GUARD_BASE })
  const seen: Guard[] = []
  scope.watch((next) => seen.push(next))
  return { ...fixture, scope, seen }
}

describe('hot reload', () => {
  it('delivers an external in-place edit to watchers', async () => {
    const { file, scope, seen } = openGuard()
    await writeFile(file, 'maintainer-doc-guard:\n  nudgeAfter: 7\n  dryRun: true\n')
    await vi.waitFor(() => expect(scope.get()).toEqual({ ...GUARD_BASE, nudgeAfter: 7, dryRun: true }), WAIT)
    // An in-place write is truncate + write; only the settled content matters here.
    expect(seen.at(-1)).toEqual({ ...GUARD_BASE, nudgeAfter: 7, dryRun: true })
  })

  it('delivers an editor-style replace (write a sibling, rename over the file)', async () => {
    const { file, scope } = openGuard()
    await replaceFile(file, 'maintainer-doc-guard:\n  docsDir: elsewhere\n')
    await vi.waitFor(() => expect(scope.get().docsDir).toBe('elsewhere'), WAIT)
    expect(scope.get().nudgeAfter).toBe(GUARD_BASE.nudgeAfter)
  })

  it('keeps the last good values on a wrong-typed field, logs one line naming the key, then applies the fix', async () => {
    const { file, scope, seen, lines } = openGuard()
    await replaceFile(file, 'maintainer-doc-guard:\n  nudgeAfter: soon\n')
    await vi.waitFor(() => expect(lines).toHaveLength(1), WAIT)
    expect(lines).toEqual(['settings.yaml: maintainer-doc-guard.nudgeAfter: expected number, received string; keeping previous values'])
    expect(scope.get().nudgeAfter).toBe(5)

    await replaceFile(file, 'maintainer-doc-guard:\n  nudgeAfter: 11\n')
    await vi.waitFor(() => expect(scope.get().nudgeAfter).toBe(11), WAIT)
    expect(seen.map((value) => value.nudgeAfter)).toEqual([11])
    expect(lines).toHaveLength(1)
  })

  it('keeps the last good values on invalid YAML and names the file and the position', async () => {
    const { file, scope, lines } = openGuard()
    await replaceFile(file, 'maintainer-doc-guard:\n  nudgeAfter: [1, 2\n')
    await vi.waitFor(() => expect(lines).toHaveLength(1), WAIT)
    expect(lines[0]).toMatch(/^settings\.yaml: invalid YAML: .* at line \d+, column \d+; keeping previous values$/)
    expect(scope.get().nudgeAfter).toBe(5)

    await replaceFile(file, 'maintainer-doc-guard:\n  nudgeAfter: 6\n')
    await vi.waitFor(() => expect(scope.get().nudgeAfter).toBe(6), WAIT)
    expect(lines).toHaveLength(1)
  })

  it('does not repeat the error of a still-invalid namespace when another namespace changes', async () => {
    const { store, file, lines } = box.open()
    const guard = store.register('maintainer-doc-guard', GuardSchema, { base: GUARD_BASE })
    const misc = store.register('misc', z.object({ n: z.number() }), { base: { n: 0 } })
    await replaceFile(file, 'maintainer-doc-guard:\n  dryRun: 3\nmisc:\n  n: 1\n')
    await vi.waitFor(() => expect(misc.get().n).toBe(1), WAIT)
    await replaceFile(file, 'maintainer-doc-guard:\n  dryRun: 3\nmisc:\n  n: 2\n')
    await vi.waitFor(() => expect(misc.get().n).toBe(2), WAIT)
    expect(guard.get().dryRun).toBe(false)
    expect(lines).toEqual(['settings.yaml: maintainer-doc-guard.dryRun: expected boolean, received number; keeping previous values'])
  })

  it('falls back to the base values when the file is deleted, and picks it up again when it reappears', async () => {
    const { file, scope, seen } = openGuard()
    await rm(file)
    await vi.waitFor(() => expect(scope.get()).toEqual(GUARD_BASE), WAIT)
    await writeFile(file, 'maintainer-doc-guard:\n  nudgeAfter: 2\n')
    await vi.waitFor(() => expect(scope.get().nudgeAfter).toBe(2), WAIT)
    expect(seen.map((value) => value.nudgeAfter)).toEqual([3, 2])
  })

  it('does not notify a namespace whose value a rewrite leaves equal', async () => {
    const { store, file } = box.open()
    const guard = store.register('maintainer-doc-guard', GuardSchema, { base: GUARD_BASE })
    const misc = store.register('misc', z.object({ n: z.number() }), { base: { n: 0 } })
    let guardNotified = 0
    guard.watch(() => guardNotified++)
    // Same guard values, spelled differently (comment, quoting, an explicit base value), plus a real change elsewhere.
    await replaceFile(file, '# touched\nmisc: {n: 4}\nmaintainer-doc-guard:\n  nudgeAfter: 0x5 # hex\n  dryRun: false\n')
    await vi.waitFor(() => expect(misc.get().n).toBe(4), WAIT)
    expect(guardNotified).toBe(0)
  })

  it('watches a directory that does not exist yet and applies the file once it appears', async () => {
    const { store, file } = box.open({ relative: 'later/home/settings.yaml' })
    const scope = store.register('guard', GuardSchema, { base: GUARD_BASE })
    await box.tree.write({ 'later/home/settings.yaml': 'guard:\n  nudgeAfter: 42\n' })
    await vi.waitFor(() => expect(scope.get().nudgeAfter).toBe(42), WAIT)
    await replaceFile(file, 'guard:\n  nudgeAfter: 43\n')
    await vi.waitFor(() => expect(scope.get().nudgeAfter).toBe(43), WAIT)
  })

  it('survives the directory being removed and recreated', async () => {
    const { scope } = openGuard()
    await rm(box.tree.path('home'), { recursive: true })
    await vi.waitFor(() => expect(scope.get()).toEqual(GUARD_BASE), WAIT)
    await box.tree.write({ 'home/settings.yaml': 'maintainer-doc-guard:\n  nudgeAfter: 9\n' })
    await vi.waitFor(() => expect(scope.get().nudgeAfter).toBe(9), WAIT)
  })

  it('stops reacting after close', async () => {
    const { store, file, scope } = openGuard()
    store.close()
    await replaceFile(file, 'maintainer-doc-guard:\n  nudgeAfter: 99\n')
    await pause(150)
    expect(scope.get().nudgeAfter).toBe(5)
  })
})
