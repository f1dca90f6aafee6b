// Resume, remount and compaction: a compatible visible baseline stays authoritative and offline
// changes append transitions; an incompatible one is superseded; compaction re-arms scopes.
import { describe, expect, it } from 'vitest'
import { PLUGIN_NAME } from '../src/message.ts'
import { projectScope } from '../src/scope-key.ts'
import { deriveVisibleState } from '../src/visible-state.ts'
import { changesOf, instructionMessages, REPO, sourceOf, textOf } from './support/fixtures.ts'
import { Rig, visibleTexts } from './support/rig.ts'

async function firstSession(files: Record<string, string> = REPO, config = {}) {
  const rig = await new Rig({ files, config }).start()
  const agent = rig.agent('/repo')
  await rig.step(agent, { prompt: 'p', tools: [{ touched: ['/repo/pkg/a.ts'] }] })
  return { rig, agent }
}

describe('resume', () => {
  it('retains one visible baseline across repeated resumes when nothing changed', async () => {
    const { rig, agent } = await firstSession()
    let session = agent.session
    for (let i = 0; i < 3; i++) {
      const resumed = rig.agent('/repo', session)
      const entered = await rig.step(resumed, { prompt: `again ${i}` })
      expect(entered.map(textOf)).toEqual([`again ${i}`])
      session = resumed.session
    }
    expect(instructionMessages(session)).toHaveLength(2)
  })

  it('appends transitions for offline additions, edits and removals right after the prompt', async () => {
    const { rig, agent } = await firstSession({ ...REPO, '/repo/CLAUDE.local.md': 'x' })
    rig.fs.write('/repo/AGENTS.md', 'Root v2.')
    rig.fs.remove('/repo/pkg/AGENTS.md')
    rig.fs.write('/repo/AGENTS.local.md', 'New local.')
    rig.fs.write('/home/user/.dsh/AGENTS.md', 'Global v2.')
    const resumed = rig.agent('/repo', agent.session)
    const entered = await rig.step(resumed, { prompt: 'resume' })
    expect(textOf(entered[0]!)).toBe('resume')
    expect(entered).toHaveLength(2)
    expect(sourceOf(entered[1]!)?.baseline).toBeUndefined()
    expect(changesOf([entered[1]!])).toEqual([
      { action: 'replace', path: '~/.dsh/AGENTS.md' },
      { action: 'replace', path: 'AGENTS.md' },
      { action: 'replace', path: 'AGENTS.local.md' },
      { action: 'remove', path: 'pkg/AGENTS.md' },
    ])
    expect(textOf(entered[1]!)).toContain('Root v2.')
  })

  it('preserves a visible baseline whose source is unavailable during resume', async () => {
    const { rig, agent } = await firstSession()
    rig.fs.faults.failLstat.add('/repo/AGENTS.md')
    const resumed = rig.agent('/repo', agent.session)
    const entered = await rig.step(resumed, { prompt: 'r' })
    expect(entered.map(textOf)).toEqual(['r'])
  })

  it('does not promote an unchanged budget-omitted baseline file, but removes a visible file that leaves the budget', async () => {
    const files = { ...REPO, '/home/user/.dsh/AGENTS.md': 'g'.repeat(300), '/repo/AGENTS.md': 'r', '/repo/pkg/AGENTS.md': 'p' }
    const probe = await new Rig({ files }).start()
    const sizing = probe.agent('/repo/pkg')
    await probe.step(sizing, { prompt: 'p' })
    const maxBytes = Buffer.byteLength(textOf(instructionMessages(sizing.session)[0]!)) + 10
    const rig = await new Rig({ files, config: { maxBytes } }).start()
    const agent = rig.agent('/repo/pkg')
    await rig.step(agent, { prompt: 'p' })
    expect(changesOf(instructionMessages(agent.session)).map((c) => c.path)).toEqual(['~/.dsh/AGENTS.md', 'AGENTS.md', 'pkg/AGENTS.md'])
    const same = rig.agent('/repo/pkg', agent.session)
    expect((await rig.step(same, { prompt: 'r', tools: [{ touched: ['/repo/pkg/a.ts'] }] })).map(textOf)).toEqual(['r'])
    rig.fs.write('/repo/pkg/AGENTS.md', 'p'.repeat(150))
    const grown = rig.agent('/repo/pkg', same.session)
    const entered = await rig.step(grown, { prompt: 'r2' })
    expect(changesOf(entered.slice(1))).toEqual([
      { action: 'remove', path: '~/.dsh/AGENTS.md' },
      { action: 'replace', path: 'pkg/AGENTS.md' },
    ])
    const again = rig.agent('/repo/pkg', grown.session)
    expect((await rig.step(again, { prompt: 'r3', tools: [{ touched: ['/repo/pkg/a.ts'] }] })).map(textOf)).toEqual(['r3'])
  })

  it('supersedes a visible baseline with another identity by one complete baseline with removals', async () => {
    const { agent } = await firstSession({ ...REPO, '/repo/CLAUDE.md': 'Claude root.' })
    const rig = await new Rig({ files: { ...REPO, '/repo/CLAUDE.md': 'Claude root.' }, config: { instructionFileCandidates: ['CLAUDE.md'] } }).start()
    const resumed = rig.agent('/repo', agent.session)
    const entered = await rig.step(resumed, { prompt: 'r' })
    const [baseline, batch] = entered.slice(1)
    expect(sourceOf(baseline!)?.baseline).toBe(true)
    expect(textOf(baseline!)).toContain('supersedes every earlier workspace instruction baseline')
    expect(textOf(baseline!)).toContain('Instructions from: CLAUDE.md')
    expect(sourceOf(baseline!)?.changes.map((c) => [c.action, c.path])).toEqual([
      ['set', '~/.dsh/AGENTS.md'],
      ['set', 'CLAUDE.md'],
    ])
    expect(changesOf([batch!])).toEqual([{ action: 'remove', path: 'pkg/AGENTS.md' }])
  })

  it('supersedes with an explicit empty baseline when no current candidate exists', async () => {
    const { agent } = await firstSession()
    const rig = await new Rig({ files: REPO, config: { instructionFileCandidates: ['NOPE.md'], localInstructionFileCandidates: [], dshHome: '/nowhere' } }).start()
    const resumed = rig.agent('/repo', agent.session)
    const entered = await rig.step(resumed, { prompt: 'r' })
    expect(textOf(entered[1]!)).toContain('No workspace instruction files apply any more.')
    expect(sourceOf(entered[1]!)?.changes.map((c) => c.action)).toEqual(['remove', 'remove'])
  })

  it('keeps a baseline file whose probe fails out of the removals of a superseding baseline, and says it is still in effect', async () => {
    const { rig, agent } = await firstSession()
    // AGENTS.md becomes a self-loop: its probe fails (ELOOP), which says nothing about the file.
    rig.fs.remove('/repo/AGENTS.md')
    rig.fs.symlink('/repo/AGENTS.md', 'AGENTS.md')
    await rig.remount({ maxBytes: 60000 })
    const resumed = rig.agent('/repo', agent.session)
    const entered = await rig.step(resumed, { prompt: 'r' })
    expect(entered).toHaveLength(2)
    const baseline = entered[1]!
    expect(sourceOf(baseline)?.baseline).toBe(true)
    expect(sourceOf(baseline)?.changes.map((c) => [c.action, c.path])).toEqual([['set', '~/.dsh/AGENTS.md']])
    expect(textOf(baseline)).toContain('\n\nStill in effect from earlier (could not be read now): AGENTS.md\n\nInstructions from: ~/.dsh/AGENTS.md')
    expect(deriveVisibleState(resumed.session, PLUGIN_NAME).scopes.get(projectScope('.', 'base').key)).toMatchObject({ action: 'set', path: 'AGENTS.md' })
    // Readable again with the same content: nothing to send; with new content: an update.
    rig.fs.remove('/repo/AGENTS.md')
    rig.fs.write('/repo/AGENTS.md', 'Root rules.\n')
    expect(await rig.step(resumed, { tools: [{ touched: ['/repo/x.ts'] }] })).toHaveLength(0)
  })

  it('retires the scopes of another project root instead of probing their keys under the new root', async () => {
    const files = { '/x/app/AGENTS.md': 'App rules.', '/x/app/pkg/AGENTS.md': 'App pkg rules.', '/x/app/pkg/a.ts': '', '/x/pkg/AGENTS.md': 'Unrelated rules.' }
    const rig = await new Rig({ files }).start()
    const agent = rig.agent('/x/app')
    await rig.step(agent, { prompt: 'p', tools: [{ touched: ['/x/app/pkg/a.ts'] }] })
    expect(changesOf(instructionMessages(agent.session)).map((c) => c.path)).toEqual(['AGENTS.md', 'pkg/AGENTS.md'])
    rig.fs.mkdirp('/x/.git')
    const resumed = rig.agent('/x/app', agent.session)
    const entered = await rig.step(resumed, { prompt: 'r' })
    expect(entered).toHaveLength(2)
    const text = textOf(entered[1]!)
    expect(text).not.toContain('Unrelated')
    expect(text).toContain('The project root changed, so these instructions loaded earlier no longer apply (paths relative to the previous root): pkg/AGENTS.md')
    expect(text).toContain('Instructions from: app/AGENTS.md\n\nApp rules.')
    expect(sourceOf(entered[1]!)?.changes.map((c) => [c.action, c.path])).toEqual([
      ['remove', 'AGENTS.md'],
      ['remove', 'pkg/AGENTS.md'],
      ['set', 'app/AGENTS.md'],
    ])
    expect(rig.fs.calls.filter((c) => c.method === 'streamText').map((c) => c.path)).not.toContain('/x/pkg/AGENTS.md')
    // The old nested file comes back under its new key at its next touch.
    const touched = await rig.step(resumed, { tools: [{ touched: ['/x/app/pkg/a.ts'] }] })
    expect(changesOf(touched)).toEqual([{ action: 'set', path: 'app/pkg/AGENTS.md' }])
  })

  it('derives loaded nested state from resumed history instead of duplicating it', async () => {
    const { rig, agent } = await firstSession()
    const resumed = rig.agent('/repo', agent.session)
    await rig.step(resumed, { prompt: 'r', tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(instructionMessages(resumed.session)).toHaveLength(2)
  })

  it('retains a visible baseline after a hot plugin remount', async () => {
    const { rig, agent } = await firstSession()
    const before = rig.pluginFiber
    await rig.remount({})
    expect(rig.pluginFiber).not.toBe(before)
    // The same agent continues on the same host; the remounted plugin keeps the visible baseline.
    expect((await rig.step(agent, { prompt: 'x' })).map(textOf)).toEqual(['x'])
    // An edit made while the plugin was being remounted is appended, not a second baseline.
    rig.fs.write('/repo/AGENTS.md', 'Root rules, edited while remounting.\n')
    await rig.remount({})
    const entered = await rig.step(agent, { prompt: 'y' })
    expect(entered.map(textOf)).toEqual(['y', expect.stringContaining('Updated instructions from: AGENTS.md')])
    expect(instructionMessages(agent.session).filter((m) => sourceOf(m)?.baseline === true)).toHaveLength(1)
  })
})

describe('compaction', () => {
  it('folds a complete baseline into the next entering pre-step after compaction shadows it', async () => {
    const { rig, agent } = await firstSession()
    rig.compact(agent)
    const entered = await rig.step(agent, { prompt: 'after' })
    expect(textOf(entered[0]!)).toBe('after')
    expect(sourceOf(entered[1]!)?.baseline).toBe(true)
    expect(textOf(entered[1]!)).toMatch(/^<system-reminder>\nThe following workspace instructions/u)
    expect(await rig.step(agent, { prompt: 'later' })).toHaveLength(1)
  })

  it('re-arms a nested instruction after compaction removes it from the surface', async () => {
    const { rig, agent } = await firstSession()
    rig.compact(agent)
    await rig.step(agent, { prompt: 'after' })
    const entered = await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(changesOf(entered)).toEqual([{ action: 'set', path: 'pkg/AGENTS.md' }])
  })

  it('re-adds baseline scopes as dynamic messages when a touch comes first, then does not repeat them', async () => {
    const { rig, agent } = await firstSession()
    const entered = await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(entered).toHaveLength(0)
    rig.compact(agent)
    const next = await rig.step(agent, { tools: [{ touched: ['/repo/x.ts'] }] })
    expect(changesOf(next).map((c) => c.path)).toEqual(['~/.dsh/AGENTS.md', 'AGENTS.md'])
    const after = await rig.step(agent, { prompt: 'n' })
    expect(after.map(textOf)).toEqual(['n'])
    expect(visibleTexts(agent.session).filter((t) => t.includes('Root rules.'))).toHaveLength(1)
  })

  it('retries the restoration at the next pre-step when the restoring pre-step is aborted', async () => {
    const { rig, agent } = await firstSession()
    rig.compact(agent)
    rig.fs.faults.hangRead.add('/repo/AGENTS.md')
    rig.clock += 1000
    rig.fs.write('/repo/AGENTS.md', 'Root rules v2.\n')
    const controller = new AbortController()
    void rig.fs.nextHang().then(() => controller.abort(new Error('stop')))
    await expect(rig.step(agent, { prompt: 'aborted', signal: controller.signal })).rejects.toThrow('stop')
    rig.fs.faults.hangRead.clear()
    const entered = await rig.step(agent, { prompt: 'again' })
    expect(entered.map(textOf)[0]).toBe('again')
    expect(sourceOf(entered[1]!)?.baseline).toBe(true)
    expect(textOf(entered[1]!)).toContain('Root rules v2.')
  })

  it('leaves out of a restored baseline the files the conversation still shows unchanged', async () => {
    const { rig, agent } = await firstSession({ ...REPO, '/repo/AGENTS.local.md': 'Local rules.\n' })
    rig.fs.write('/repo/AGENTS.md', 'Root v2.\n')
    rig.fs.write('/home/user/.dsh/AGENTS.md', 'Global v2.\n')
    const resumed = rig.agent('/repo', agent.session)
    const updates = await rig.step(resumed, { prompt: 'resume' })
    expect(changesOf(updates.slice(1))).toEqual([
      { action: 'replace', path: '~/.dsh/AGENTS.md' },
      { action: 'replace', path: 'AGENTS.md' },
    ])
    // Compaction shadows the baseline but keeps the last turn (prompt, updates, step end).
    rig.compact(resumed, 2)
    expect(deriveVisibleState(resumed.session, PLUGIN_NAME).baseline).toBeUndefined()
    const again = rig.agent('/repo', resumed.session)
    const entered = await rig.step(again, { prompt: 'again' })
    expect(entered).toHaveLength(2)
    const baseline = entered[1]!
    expect(sourceOf(baseline)?.changes.map((c) => [c.action, c.path])).toEqual([['set', 'AGENTS.local.md']])
    expect(textOf(baseline)).not.toContain('Root v2.')
    expect(textOf(baseline)).not.toContain('Global v2.')
    expect(textOf(baseline)).toContain('Also in effect, shown earlier in this conversation and unchanged: ~/.dsh/AGENTS.md, AGENTS.md\n\nInstructions from: AGENTS.local.md')
    expect((await rig.step(again, { prompt: 'later', tools: [{ touched: ['/repo/x.ts'] }] })).map(textOf)).toEqual(['later'])
  })

  it('restores a compacted baseline on a resume', async () => {
    const { rig, agent } = await firstSession()
    rig.compact(agent)
    const resumed = rig.agent('/repo', agent.session)
    const entered = await rig.step(resumed, { prompt: 'r' })
    expect(sourceOf(entered[1]!)?.baseline).toBe(true)
    expect(textOf(entered[1]!)).not.toContain('supersedes')
  })
})
