// A settings change (another baseline identity) that makes a loaded file unloadable: the file did
// not change, the new settings exclude it, so it is removed — never named "still in effect" or
// "outdated". Only a transient failure (an I/O error) keeps a file in effect. Entries that came
// from change batches follow the same rules as those of the old baseline, so the plugin's state
// and what the model was told agree.
import { describe, expect, it } from 'vitest'
import type { UserMessage } from '@dsh/contracts'
import { PLUGIN_NAME } from '../src/message.ts'
import { projectScope, userGlobalScope } from '../src/scope-key.ts'
import { deriveVisibleState, isLoaded } from '../src/visible-state.ts'
import { instructionMessages, sourceOf, textOf } from './support/fixtures.ts'
import { Rig, type RigAgent } from './support/rig.ts'

const ROOT = projectScope('.', 'base').key
const PKG = projectScope('pkg', 'base').key
const EMPTY_SUPERSEDING = `<system-reminder>
This is the complete current set of workspace instructions; it supersedes every earlier workspace instruction baseline in this conversation. No workspace instruction files apply any more.
</system-reminder>`

/** `AGENTS.md` links to `docs/agents.md`; no user-global file. */
async function linkedRoot(extra: Record<string, string> = {}) {
  const rig = await new Rig({ files: { '/repo/.git/HEAD': 'ref', '/repo/docs/agents.md': 'Agent rules.\n', '/repo/pkg/a.ts': '', ...extra } }).start()
  rig.fs.symlink('/repo/AGENTS.md', 'docs/agents.md')
  const agent = rig.agent('/repo')
  await rig.step(agent, { prompt: 'p' })
  expect(sourceOf(instructionMessages(agent.session)[0]!)?.changes.map((c) => [c.action, c.path])).toContainEqual(['set', 'AGENTS.md'])
  return { rig, agent }
}

/** Remounts with `config` and runs the first step of a resumed instance; returns what it entered after the prompt. */
async function resumeWith(rig: Rig, agent: RigAgent, config: Record<string, unknown>): Promise<{ resumed: RigAgent; added: UserMessage[] }> {
  await rig.remount(config)
  const resumed = rig.agent('/repo', agent.session)
  const entered = await rig.step(resumed, { prompt: 'r' })
  expect(textOf(entered[0]!)).toBe('r')
  return { resumed, added: entered.slice(1) }
}

/** The scope of `pkg/AGENTS.md` under a candidate policy. */
const slot = (policy: 'first' | 'all'): string => projectScope('pkg', policy === 'first' ? 'base' : '=AGENTS.md').key
const changes = (message: UserMessage | undefined) => sourceOf(message!)?.changes.map((c) => ({ action: c.action, path: c.path, ...(c.unloadable === undefined ? {} : { unloadable: c.unloadable }) }))
const loaded = (agent: RigAgent, scope: string): boolean => isLoaded(deriveVisibleState(agent.session, PLUGIN_NAME).scopes.get(scope))

describe('a settings change that excludes a loaded file', () => {
  it('followSymlinks turned off: the superseding baseline removes the linked file, with no outdated notice', async () => {
    const { rig, agent } = await linkedRoot()
    const { resumed, added } = await resumeWith(rig, agent, { followSymlinks: false })
    expect(added).toHaveLength(1)
    expect(textOf(added[0]!)).toBe(EMPTY_SUPERSEDING)
    expect(sourceOf(added[0]!)?.baseline).toBe(true)
    expect(changes(added[0])).toEqual([{ action: 'remove', path: 'AGENTS.md' }])
    expect(loaded(resumed, ROOT)).toBe(false)
    // The same settings again: nothing to say.
    const again = rig.agent('/repo', resumed.session)
    expect((await rig.step(again, { prompt: 'x', tools: [{ touched: ['/repo/pkg/a.ts'] }] })).map(textOf)).toEqual(['x'])
  })

  it('a file the new settings exclude is removed while one that failed transiently stays in effect', async () => {
    const { rig, agent } = await linkedRoot({ '/repo/AGENTS.local.md': 'Local rules.\n', '/repo/pkg/AGENTS.md': 'Pkg rules.\n' })
    rig.fs.faults.failLstat.add('/repo/AGENTS.local.md')
    const { resumed, added } = await resumeWith(rig, agent, { followSymlinks: false })
    expect(added).toHaveLength(1)
    expect(textOf(added[0]!)).toBe(`<system-reminder>
This is the complete current set of workspace instructions; it supersedes every earlier workspace instruction baseline in this conversation. No other workspace instruction files apply.

Still in effect from earlier (could not be read now): AGENTS.local.md
</system-reminder>`)
    expect(changes(added[0])).toEqual([{ action: 'remove', path: 'AGENTS.md' }])
    expect(loaded(resumed, ROOT)).toBe(false)
    expect(loaded(resumed, projectScope('.', 'local').key)).toBe(true)
  })

  it('a nested file loaded by a touch is removed by a normal removal, not flagged as outdated', async () => {
    const { rig, agent } = await linkedRoot({ '/repo/docs/pkg.md': 'Pkg rules.\n' })
    rig.fs.symlink('/repo/pkg/AGENTS.md', '../docs/pkg.md')
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(loaded(agent, PKG)).toBe(true)
    const { resumed, added } = await resumeWith(rig, agent, { followSymlinks: false })
    expect(added.map(textOf)).toEqual([
      EMPTY_SUPERSEDING,
      `<system-reminder>
Instructions removed: pkg/AGENTS.md

The previously loaded instructions from this file no longer apply.
</system-reminder>`,
    ])
    expect(added.map(changes)).toEqual([[{ action: 'remove', path: 'AGENTS.md' }], [{ action: 'remove', path: 'pkg/AGENTS.md' }]])
    expect(loaded(resumed, PKG)).toBe(false)
  })

  it('a baseline file last updated by a change batch is removed by the superseding baseline', async () => {
    const { rig, agent } = await linkedRoot()
    rig.fs.write('/repo/docs/agents.md', 'Agent rules v2.\n')
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(changes(instructionMessages(agent.session).at(-1))).toEqual([{ action: 'replace', path: 'AGENTS.md' }])
    const { resumed, added } = await resumeWith(rig, agent, { followSymlinks: false })
    expect(added.map(textOf)).toEqual([EMPTY_SUPERSEDING])
    expect(changes(added[0])).toEqual([{ action: 'remove', path: 'AGENTS.md' }])
    expect(loaded(resumed, ROOT)).toBe(false)
  })

  it('a baseline file last updated by a change batch that cannot be read now is named as still in effect', async () => {
    const { rig, agent } = await linkedRoot()
    rig.fs.write('/repo/docs/agents.md', 'Agent rules v2.\n')
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    rig.fs.faults.failLstat.add('/repo/AGENTS.md')
    const { resumed, added } = await resumeWith(rig, agent, { maxBytes: 60000 })
    expect(added.map(textOf)).toEqual([
      `<system-reminder>
This is the complete current set of workspace instructions; it supersedes every earlier workspace instruction baseline in this conversation. No other workspace instruction files apply.

Still in effect from earlier (could not be read now): AGENTS.md
</system-reminder>`,
    ])
    expect(changes(added[0])).toEqual([])
    expect(loaded(resumed, ROOT)).toBe(true)
  })

  it('an outdated entry from a change batch is removed when a later settings change excludes the file (maxSourceBytes)', async () => {
    const { rig, agent } = await linkedRoot()
    // The file changes into something that cannot load: one outdated notice (same settings).
    rig.fs.write('/repo/docs/agents.md', new Uint8Array([0x61, 0xff]))
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(changes(instructionMessages(agent.session).at(-1))).toEqual([{ action: 'replace', path: 'AGENTS.md', unloadable: 'not-utf8' }])
    const { resumed, added } = await resumeWith(rig, agent, { maxSourceBytes: 5 })
    expect(added.map(textOf)).toEqual([EMPTY_SUPERSEDING])
    expect(changes(added[0])).toEqual([{ action: 'remove', path: 'AGENTS.md' }])
    expect(loaded(resumed, ROOT)).toBe(false)
  })

  it('followSymlinks off, then maxSourceBytes: 5 — the plugin state and the baselines agree at every resume', async () => {
    const { rig, agent } = await linkedRoot()
    const first = await resumeWith(rig, agent, { followSymlinks: false })
    expect(first.added.map(textOf)).toEqual([EMPTY_SUPERSEDING])
    expect(loaded(first.resumed, ROOT)).toBe(false)
    const second = await resumeWith(rig, first.resumed, { followSymlinks: false, maxSourceBytes: 5 })
    expect(second.added.map(textOf)).toEqual([EMPTY_SUPERSEDING])
    expect(changes(second.added[0])).toEqual([])
    expect(loaded(second.resumed, ROOT)).toBe(false)
    const all = instructionMessages(second.resumed.session).map(textOf).join('\n')
    expect(all).not.toContain('Instructions outdated')
    expect(all).not.toContain('Still in effect')
  })

  it('a session that never had a baseline: change batches record their settings, so a settings change removes, an edit flags', async () => {
    const rig = await new Rig({ files: { '/repo/.git/HEAD': 'ref', '/repo/docs/pkg.md': 'Pkg rules.\n', '/repo/pkg/a.ts': '', '/repo/lib/AGENTS.md': 'Lib rules.\n', '/repo/lib/a.ts': '' } }).start()
    rig.fs.symlink('/repo/pkg/AGENTS.md', '../docs/pkg.md')
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p', tools: [{ touched: ['/repo/pkg/a.ts', '/repo/lib/a.ts'] }] })
    const [batch] = instructionMessages(agent.session)
    expect(sourceOf(batch!)?.baseline).toBeUndefined()
    expect(JSON.parse(sourceOf(batch!)?.baselineIdentity ?? '{}')).toMatchObject({ followSymlinks: true })
    // Same settings, lib/AGENTS.md changed into something that cannot load: outdated, not removed.
    rig.fs.write('/repo/lib/AGENTS.md', new Uint8Array([0x61, 0xff]))
    const same = rig.agent('/repo', agent.session)
    const flagged = await rig.step(same, { prompt: 'r' })
    expect(flagged.slice(1).map(changes)).toEqual([[{ action: 'replace', path: 'lib/AGENTS.md', unloadable: 'not-utf8' }]])
    // Other settings: the linked file is removed (nothing flagged), the outdated one is removed by the cap.
    const { resumed, added } = await resumeWith(rig, same, { followSymlinks: false, maxSourceBytes: 1 })
    expect(added.map(textOf)).toEqual([
      `<system-reminder>
Instructions removed: lib/AGENTS.md

The previously loaded instructions from this file no longer apply.

Instructions removed: pkg/AGENTS.md

The previously loaded instructions from this file no longer apply.
</system-reminder>`,
    ])
    expect(loaded(resumed, PKG)).toBe(false)
    expect(loaded(resumed, projectScope('lib', 'base').key)).toBe(false)
  })

  it('never flags a file as outdated in the first pass under other settings, also when no baseline is visible', async () => {
    const { rig, agent } = await linkedRoot({ '/repo/docs/pkg.md': 'Pkg rules.\n' })
    rig.fs.symlink('/repo/pkg/AGENTS.md', '../docs/pkg.md')
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    // Compaction hides the baseline; the nested file's message stays visible.
    rig.compact(agent, 1)
    const state = deriveVisibleState(agent.session, PLUGIN_NAME)
    expect(state.baseline).toBeUndefined()
    expect(isLoaded(state.scopes.get(PKG))).toBe(true)
    const { resumed, added } = await resumeWith(rig, agent, { followSymlinks: false })
    expect(added.map(textOf)).toEqual([
      `<system-reminder>
Instructions removed: pkg/AGENTS.md

The previously loaded instructions from this file no longer apply.
</system-reminder>`,
    ])
    expect(loaded(resumed, PKG)).toBe(false)
  })
  // Property-test counterexample (seed -120514250): the first pass under the new settings had
  // nothing to say, so it logged nothing and the session's sources still name the old settings.
  // The user-global file became too large only after that pass, under unchanged settings: rule 2
  // (one outdated notice, stays loaded), not rule 1 (removal) — also in a later loop instance.
  it('a file that becomes too large after the first pass under new settings that logged nothing is flagged, not removed', async () => {
    const GLOBAL = userGlobalScope().key
    const rig = await new Rig({ files: { '/repo/.git/HEAD': 'x', '/repo/a/b/f.ts': '', '/repo/c/f.ts': '', '/repo/a/f.ts': '' } }).start()
    let agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'start' })
    rig.fs.write('/home/user/.dsh/AGENTS.md', 'alpha')
    await rig.step(agent, { prompt: 'turn', tools: [{ touched: ['/repo/a/f.ts'] }, { name: 'bash', effect: () => rig.fs.write('/repo/AGENTS.md', 'alpha') }] })
    const [batch] = instructionMessages(agent.session)
    expect(sourceOf(batch!)?.baseline).toBeUndefined()
    expect(changes(batch)).toEqual([{ action: 'set', path: '~/.dsh/AGENTS.md' }])
    // Settings change (per-file cap 100) while the root file's probe fails: its first pass has nothing to say.
    await rig.remount({ maxSourceBytes: 100 })
    agent = rig.agent('/repo', agent.session)
    rig.fs.faults.failLstat.add('/repo/AGENTS.md')
    rig.fs.faults.failStat.add('/repo/AGENTS.md')
    expect((await rig.step(agent, { prompt: 'turn' })).map(textOf)).toEqual(['turn'])
    rig.fs.faults.failLstat.clear()
    rig.fs.faults.failStat.clear()
    expect(instructionMessages(agent.session)).toHaveLength(1)
    // A resume under the same settings; the user-global file then grows past the cap.
    agent = rig.agent('/repo', agent.session)
    rig.fs.write('/home/user/.dsh/AGENTS.md', 'x'.repeat(120))
    rig.fs.write('/repo/AGENTS.md', 'alpha')
    const entered = await rig.step(agent, { prompt: 'turn', tools: [{ touched: ['/repo/a/f.ts'] }, { name: 'bash', effect: () => rig.fs.remove('/repo/a') }] })
    const said = entered.filter((m) => sourceOf(m) !== undefined)
    expect(said.flatMap((m) => changes(m) ?? [])).toEqual([
      { action: 'set', path: 'AGENTS.md' },
      { action: 'replace', path: '~/.dsh/AGENTS.md', unloadable: 'too-large' },
    ])
    expect(said.map(textOf).join('\n')).toContain('Instructions outdated: ~/.dsh/AGENTS.md')
    expect(said.map(textOf).join('\n')).not.toContain('Instructions removed')
    expect(loaded(agent, GLOBAL)).toBe(true)
    // Later touches say nothing more about it, and it stays loaded.
    for (let i = 0; i < 2; i++) {
      expect((await rig.step(agent, { prompt: 'turn', tools: [{ touched: ['/repo/a/f.ts'] }] })).filter((m) => sourceOf(m) !== undefined)).toEqual([])
      expect(loaded(agent, GLOBAL)).toBe(true)
    }
    const all = instructionMessages(agent.session)
    expect(all.flatMap((m) => changes(m) ?? []).filter((c) => c.path === '~/.dsh/AGENTS.md' && c.action === 'remove')).toEqual([])
  })

  it('a file already too large in the first pass under the new settings is still removed after a resume that logged nothing', async () => {
    const GLOBAL = userGlobalScope().key
    const rig = await new Rig({ files: { '/repo/.git/HEAD': 'x', '/repo/a/f.ts': '', '/home/user/.dsh/AGENTS.md': 'x'.repeat(120) } }).start()
    let agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'start' })
    expect(loaded(agent, GLOBAL)).toBe(true)
    await rig.remount({ maxSourceBytes: 100 })
    agent = rig.agent('/repo', agent.session)
    const added = (await rig.step(agent, { prompt: 'turn' })).slice(1)
    expect(added.flatMap((m) => changes(m) ?? [])).toEqual([{ action: 'remove', path: '~/.dsh/AGENTS.md' }])
    expect(loaded(agent, GLOBAL)).toBe(false)
  })
  // Property-test counterexample (seed 1453557274): cap 100 (a batch logged under it), cap lifted
  // (its first pass logs nothing), the file grows to 120 bytes, cap 100 again. The logged identity
  // equals the current one, but the settings changed since the file was last examined: rule 1.
  it('settings A, then B logging nothing, then A again: a file A refuses is removed, not flagged', async () => {
    const LOCAL_A = projectScope('a', 'local').key
    const rig = await new Rig({ files: { '/repo/.git/HEAD': 'x', '/repo/a/f.ts': '' } }).start()
    await rig.remount({ maxSourceBytes: 100 })
    let agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'start' })
    rig.fs.write('/repo/a/AGENTS.local.md', 'alpha')
    await rig.step(agent, { prompt: 'turn', tools: [{ touched: ['/repo/a/f.ts'] }] })
    expect(JSON.parse(sourceOf(instructionMessages(agent.session).at(-1)!)?.baselineIdentity ?? '{}')).toMatchObject({ maxSourceBytes: 100 })
    // B: the cap lifted; the file still loads, so its first pass logs nothing.
    await rig.remount({})
    agent = rig.agent('/repo', agent.session)
    expect((await rig.step(agent, { prompt: 'turn' })).map(textOf)).toEqual(['turn'])
    rig.fs.write('/repo/a/AGENTS.local.md', 'x'.repeat(120))
    // A again: the first pass under it removes the file the cap refuses.
    await rig.remount({ maxSourceBytes: 100 })
    agent = rig.agent('/repo', agent.session)
    const added = (await rig.step(agent, { prompt: 'turn' })).slice(1)
    expect(added.flatMap((m) => changes(m) ?? [])).toEqual([{ action: 'remove', path: 'a/AGENTS.local.md' }])
    expect(added.map(textOf).join('\n')).not.toContain('Instructions outdated')
    expect(loaded(agent, LOCAL_A)).toBe(false)
  })

  it.each([
    ['first', 'all'],
    ['all', 'first'],
  ] as const)('candidatePolicy %s → %s: loaded nested scopes the new slot scheme does not produce are removed, their files set again', async (from, to) => {
    const rig = await new Rig({ files: { '/repo/.git/HEAD': 'ref', '/repo/pkg/AGENTS.md': 'Pkg rules.\n', '/repo/pkg/a.ts': '' }, config: { candidatePolicy: from } }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(loaded(agent, slot(from))).toBe(true)
    const { resumed, added } = await resumeWith(rig, agent, { candidatePolicy: to })
    const batch = sourceOf(added.at(-1)!)?.changes.map((c) => [c.action, c.scope])
    expect(batch).toEqual(expect.arrayContaining([['remove', slot(from)], ['set', slot(to)]]))
    expect(loaded(resumed, slot(from))).toBe(false)
    expect(loaded(resumed, slot(to))).toBe(true)
  })
})

