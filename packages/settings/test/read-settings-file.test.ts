// readSettingsFile: present, absent and unavailable are three distinct answers.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readSettingsFile } from '../src/index.ts'
import { sandbox, type Sandbox } from './helpers.ts'

let box: Sandbox
beforeEach(async () => {
  box = await sandbox({ 'home/settings.yaml': '# note\nguard:\n  nudgeAfter: 5\n', 'home/broken.yaml': 'a: [1\n', 'home/dir.yaml/': null })
})
afterEach(() => box.dispose())

describe('readSettingsFile', () => {
  it('returns the parsed document, comments included, for an existing file', async () => {
    const state = await readSettingsFile(box.tree.path('home/settings.yaml'))
    expect(state.kind).toBe('present')
    if (state.kind !== 'present') return
    expect(state.document.toJS()).toEqual({ guard: { nudgeAfter: 5 } })
    expect(state.document.toString()).toContain('# note')
  })

  it('returns present with the YAML errors attached for a malformed file', async () => {
    const state = await readSettingsFile(box.tree.path('home/broken.yaml'))
    expect(state.kind).toBe('present')
    if (state.kind !== 'present') return
    expect(state.document.errors.length).toBeGreaterThan(0)
  })

  it('returns absent only when nothing is there', async () => {
    expect(await readSettingsFile(box.tree.path('home/missing.yaml'))).toEqual({ kind: 'absent' })
    expect(await readSettingsFile(box.tree.path('nowhere/settings.yaml'))).toEqual({ kind: 'absent' })
  })

  it('returns unavailable, not absent, when the path cannot be read', async () => {
    const isDirectory = await readSettingsFile(box.tree.path('home/dir.yaml'))
    expect(isDirectory).toMatchObject({ kind: 'unavailable', error: expect.objectContaining({ code: 'EISDIR' }) })
    const underAFile = await readSettingsFile(box.tree.path('home/settings.yaml/inner.yaml'))
    expect(underAFile).toMatchObject({ kind: 'unavailable', error: expect.objectContaining({ code: 'ENOTDIR' }) })
  })
})
