// Dynamic discovery after successful touches: new scopes, updates, switches, removals,
// tombstones, duplicate suppression, and what does not trigger discovery.
import { describe, expect, it } from 'vitest'
import { renderChangeBatch } from '../src/render.ts'
import { projectScope } from '../src/scope-key.ts'
import { changesOf, instructionMessages, REPO, sourceOf, textOf } from './support/fixtures.ts'
import { Rig, visibleTexts, type RigAgent } from './support/rig.ts'

async function started(files: Record<string, string> = REPO, config = {}): Promise<{ rig: Rig; agent: RigAgent }> {
  const rig = await new Rig({ files, config }).start()
  const agent = rig.agent('/repo')
  await rig.step(agent, { prompt: 'start' })
  return { rig, agent }
}

const touch = (rig: Rig, agent: RigAgent, ...paths: string[]) => rig.step(agent, { tools: [{ touched: paths }] })
const lastChanges = (agent: RigAgent) => changesOf(instructionMessages(agent.session).slice(-1))

describe('dynamic discovery', () => {
  it('attaches a nested file after a successful read below the cwd', async () => {
    const { rig, agent } = await started()
    const entered = await touch(rig, agent, '/repo/pkg/a.ts')
    const added = entered.at(-1)!
    expect(sourceOf(added)?.baseline).toBeUndefined()
    expect(textOf(added)).toContain('Additional instructions from: pkg/AGENTS.md')
    expect(textOf(added)).toContain('These instructions apply to work under `pkg`.')
  })

  it('does not attach the same scope again while unchanged and visible', async () => {
    const { rig, agent } = await started()
    await touch(rig, agent, '/repo/pkg/a.ts')
    await touch(rig, agent, '/repo/pkg/deep/b.ts')
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(instructionMessages(agent.session)).toHaveLength(2)
  })

  it('attaches a nested base file and its local overlay together', async () => {
    const { rig, agent } = await started({ ...REPO, '/repo/pkg/AGENTS.local.md': 'Mine.' })
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(lastChanges(agent)).toEqual([
      { action: 'set', path: 'pkg/AGENTS.md' },
      { action: 'set', path: 'pkg/AGENTS.local.md' },
    ])
  })

  it('replaces a loaded file whose content changed, with the full new content', async () => {
    const { rig, agent } = await started()
    await touch(rig, agent, '/repo/pkg/a.ts')
    rig.fs.write('/repo/pkg/AGENTS.md', 'Pkg rules v2, now longer.\n')
    await touch(rig, agent, '/repo/pkg/a.ts')
    const last = instructionMessages(agent.session).at(-1)!
    expect(textOf(last)).toContain('Updated instructions from: pkg/AGENTS.md')
    expect(textOf(last)).toContain('Pkg rules v2, now longer.')
    expect(sourceOf(last)?.changes[0]).toMatchObject({ action: 'replace', scope: 'project\u0000pkg\u0000base' })
  })

  it('notices an edit of a baseline file at the next touch anywhere', async () => {
    const { rig, agent } = await started()
    rig.fs.write('/repo/AGENTS.md', 'Root v2.')
    await touch(rig, agent, '/repo/README.md')
    expect(lastChanges(agent)).toEqual([{ action: 'replace', path: 'AGENTS.md' }])
  })

  it('switches candidates with a message naming the previous path', async () => {
    const { rig, agent } = await started({ ...REPO, '/repo/pkg/CLAUDE.md': 'Claude pkg.' })
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(textOf(instructionMessages(agent.session).at(-1)!)).not.toContain('Claude pkg.')
    rig.fs.remove('/repo/pkg/AGENTS.md')
    await touch(rig, agent, '/repo/pkg/a.ts')
    const last = instructionMessages(agent.session).at(-1)!
    expect(sourceOf(last)?.changes).toEqual([expect.objectContaining({ action: 'replace', path: 'pkg/CLAUDE.md', previousPath: 'pkg/AGENTS.md' })])
    expect(textOf(last)).toContain('The instructions previously loaded from pkg/AGENTS.md no longer apply')
  })

  it('removes a scope with no candidate left, and loads it again after the tombstone', async () => {
    const { rig, agent } = await started()
    await touch(rig, agent, '/repo/pkg/a.ts')
    rig.fs.remove('/repo/pkg/AGENTS.md')
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(lastChanges(agent)).toEqual([{ action: 'remove', path: 'pkg/AGENTS.md' }])
    expect(textOf(instructionMessages(agent.session).at(-1)!)).toContain('Instructions removed: pkg/AGENTS.md')
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(instructionMessages(agent.session)).toHaveLength(3)
    rig.fs.write('/repo/pkg/AGENTS.md', 'Pkg rules.\n')
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(lastChanges(agent)).toEqual([{ action: 'set', path: 'pkg/AGENTS.md' }])
  })

  it('removes a loaded file once it resolves to a directory', async () => {
    const { rig, agent } = await started()
    await touch(rig, agent, '/repo/pkg/a.ts')
    rig.fs.remove('/repo/pkg/AGENTS.md')
    rig.fs.mkdirp('/repo/pkg/AGENTS.md')
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(lastChanges(agent)).toEqual([{ action: 'remove', path: 'pkg/AGENTS.md' }])
  })

  it('does not report a removal when a loaded scope is temporarily unavailable', async () => {
    const { rig, agent } = await started()
    await touch(rig, agent, '/repo/pkg/a.ts')
    rig.fs.faults.failLstat.add('/repo/pkg/AGENTS.md')
    rig.fs.faults.failStat.add('/repo/pkg/AGENTS.md')
    rig.fs.remove('/repo/pkg/AGENTS.md')
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(instructionMessages(agent.session)).toHaveLength(2)
    rig.fs.faults.failStat.add('/repo/pkg')
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(instructionMessages(agent.session)).toHaveLength(2)
  })

  it('treats an unreadable or oversized winner as unavailable: no removal, no fall-through, one outdated notice', async () => {
    const { rig, agent } = await started({ ...REPO, '/repo/pkg/CLAUDE.md': 'fallback' }, { maxSourceBytes: 100 })
    await touch(rig, agent, '/repo/pkg/a.ts')
    rig.fs.write('/repo/pkg/AGENTS.md', 'x'.repeat(500))
    await touch(rig, agent, '/repo/pkg/a.ts')
    rig.fs.write('/repo/pkg/AGENTS.md', new Uint8Array([0xff, 0xfe, 0x41, 0x00]))
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(instructionMessages(agent.session)).toHaveLength(3)
    expect(sourceOf(instructionMessages(agent.session)[2]!)?.changes).toEqual([{ action: 'replace', scope: 'project\u0000pkg\u0000base', path: 'pkg/AGENTS.md', unloadable: 'too-large' }])
    expect(textOf(instructionMessages(agent.session)[2]!)).toContain('Instructions outdated: pkg/AGENTS.md')
    expect(visibleTexts(agent.session).join()).not.toContain('fallback')
  })

  it('loads nested instructions for every directory between the cwd and the file, shallow first', async () => {
    const { rig, agent } = await started({ ...REPO, '/repo/pkg/deep/AGENTS.md': 'Deep.' })
    await touch(rig, agent, '/repo/pkg/deep/b.ts')
    expect(lastChanges(agent)).toEqual([
      { action: 'set', path: 'pkg/AGENTS.md' },
      { action: 'set', path: 'pkg/deep/AGENTS.md' },
    ])
  })

  it('does not discover new scopes for files directly in the cwd or outside it', async () => {
    const rig = await new Rig({ files: { ...REPO, '/repo/pkg/sub/AGENTS.md': 'Sub.', '/repo/other/AGENTS.md': 'Other.' } }).start()
    const agent = rig.agent('/repo/pkg')
    await rig.step(agent, { prompt: 'p' })
    await touch(rig, agent, '/repo/pkg/a.ts', '/repo/other/c.ts', '/elsewhere/x.ts')
    expect(instructionMessages(agent.session)).toHaveLength(1)
  })

  it('reconciles sibling candidates as independent scopes under the all policy, dropping duplicates', async () => {
    const files = { ...REPO, '/repo/pkg/CLAUDE.md': 'Claude pkg.', '/repo/pkg/GEMINI.md': ' Pkg rules.\n\n' }
    const { rig, agent } = await started(files, { candidatePolicy: 'all', instructionFileCandidates: ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'] })
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(lastChanges(agent)).toEqual([
      { action: 'set', path: 'pkg/AGENTS.md' },
      { action: 'set', path: 'pkg/CLAUDE.md' },
    ])
    rig.fs.write('/repo/pkg/CLAUDE.md', 'Pkg rules.')
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(lastChanges(agent)).toEqual([{ action: 'remove', path: 'pkg/CLAUDE.md' }])
  })

  it('under the all policy, holds a directory while an earlier candidate fails transiently, so a duplicate never slips in', async () => {
    const files = { ...REPO, '/repo/pkg/AGENTS.md': 'same rules', '/repo/pkg/CLAUDE.md': 'same rules' }
    const { rig, agent } = await started(files, { candidatePolicy: 'all' })
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(lastChanges(agent)).toEqual([{ action: 'set', path: 'pkg/AGENTS.md' }])
    // AGENTS.md changed but cannot be read now: its content is unknown, so CLAUDE.md (whose content may repeat it) is not loaded.
    rig.fs.write('/repo/pkg/AGENTS.md', 'new rules')
    rig.fs.faults.failRead.add('/repo/pkg/AGENTS.md')
    const count = instructionMessages(agent.session).length
    await touch(rig, agent, '/repo/pkg/a.ts')
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(instructionMessages(agent.session)).toHaveLength(count)
    expect(visibleTexts(agent.session).join('\n')).not.toContain('pkg/CLAUDE.md')
    // Readable again with the same rules as CLAUDE.md: an update of AGENTS.md, and still no duplicate.
    rig.fs.faults.failRead.clear()
    rig.fs.write('/repo/pkg/AGENTS.md', 'same rules\n')
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(lastChanges(agent)).toEqual([{ action: 'replace', path: 'pkg/AGENTS.md' }])
    expect(visibleTexts(agent.session).join('\n')).not.toContain('pkg/CLAUDE.md')
    // An earlier slot that fails transiently also keeps a loaded later slot as it is (no removal).
    rig.fs.write('/repo/pkg/CLAUDE.md', 'other rules')
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(lastChanges(agent)).toEqual([{ action: 'set', path: 'pkg/CLAUDE.md' }])
    rig.fs.faults.failRead.add('/repo/pkg/AGENTS.md')
    rig.fs.write('/repo/pkg/CLAUDE.md', 'same rules')
    const held = instructionMessages(agent.session).length
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(instructionMessages(agent.session)).toHaveLength(held)
  })

  it('under the all policy, a candidate refused for a definite reason does not hold back its siblings', async () => {
    const files = { ...REPO, '/repo/pkg/AGENTS.md': 'same rules', '/repo/pkg/CLAUDE.md': 'same rules' }
    const { rig, agent } = await started(files, { candidatePolicy: 'all' })
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(lastChanges(agent)).toEqual([{ action: 'set', path: 'pkg/AGENTS.md' }])
    // AGENTS.md can no longer load (not UTF-8): it is flagged as outdated once, and CLAUDE.md,
    // no longer a duplicate of anything loadable, loads normally.
    rig.fs.write('/repo/pkg/AGENTS.md', new Uint8Array([0x73, 0xff, 0x72]))
    await touch(rig, agent, '/repo/pkg/a.ts')
    const entered = instructionMessages(agent.session).at(-1)!
    expect(sourceOf(entered)?.changes).toEqual([
      { action: 'replace', scope: 'project\u0000pkg\u0000=AGENTS.md', path: 'pkg/AGENTS.md', unloadable: 'not-utf8' },
      { action: 'set', scope: 'project\u0000pkg\u0000=CLAUDE.md', path: 'pkg/CLAUDE.md', digest: expect.any(String) },
    ])
    expect(textOf(entered)).toContain('Additional instructions from: pkg/CLAUDE.md')
    const count = instructionMessages(agent.session).length
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(instructionMessages(agent.session)).toHaveLength(count)
    // AGENTS.md loadable again with the same rules: its update, and CLAUDE.md is a duplicate again.
    rig.fs.write('/repo/pkg/AGENTS.md', 'same rules')
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(lastChanges(agent)).toEqual([
      { action: 'replace', path: 'pkg/AGENTS.md' },
      { action: 'remove', path: 'pkg/CLAUDE.md' },
    ])
  })

  it('under the all policy, an escaping link does not keep the next candidate out of the baseline', async () => {
    const rig = await new Rig({ files: { '/repo/.git/HEAD': 'ref', '/repo/CLAUDE.md': 'Claude rules.\n', '/outside/AGENTS.md': 'Outside.' }, config: { candidatePolicy: 'all' } }).start()
    rig.fs.symlink('/repo/AGENTS.md', '../outside/AGENTS.md')
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    const [baseline] = instructionMessages(agent.session)
    expect(sourceOf(baseline!)?.changes.map((c) => [c.action, c.path])).toEqual([['set', 'CLAUDE.md']])
    expect(textOf(baseline!)).toContain('Instructions from: CLAUDE.md\n\nClaude rules.')
    expect(textOf(baseline!)).not.toContain('Outside.')
    expect(rig.warnings).toEqual(['instruction file AGENTS.md links outside the trusted roots; it is not loaded'])
  })

  it('flags a loaded file that changed but can no longer be loaded, once, and never removes it', async () => {
    const { rig, agent } = await started({ ...REPO, '/repo/AGENTS.md': 'use tabs' })
    rig.fs.write('/repo/AGENTS.md', new Uint8Array([0x75, 0x73, 0x65, 0x20, 0xc3, 0x28]))
    const entered = await touch(rig, agent, '/repo/pkg/a.ts')
    const notice = entered.find((m) => sourceOf(m)?.changes.some((c) => c.path === 'AGENTS.md'))!
    expect(textOf(notice)).toContain(
      'Instructions outdated: AGENTS.md\n\nThis file changed but can no longer be loaded (it is not UTF-8 text). The instructions previously loaded from it may be outdated.',
    )
    expect(sourceOf(notice)?.changes.filter((c) => c.path === 'AGENTS.md')).toEqual([{ action: 'replace', scope: 'project\u0000.\u0000base', path: 'AGENTS.md', unloadable: 'not-utf8' }])
    // Still unloadable (even after another change): nothing more; no removal either.
    const count = instructionMessages(agent.session).length
    await touch(rig, agent, '/repo/pkg/a.ts')
    rig.fs.write('/repo/AGENTS.md', new Uint8Array([0xff]))
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(instructionMessages(agent.session)).toHaveLength(count)
    // A transient failure of a loaded file is not a notice.
    rig.fs.write('/repo/pkg/AGENTS.md', 'Pkg rules v2.')
    rig.fs.faults.failRead.add('/repo/pkg/AGENTS.md')
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(instructionMessages(agent.session)).toHaveLength(count)
    // Loadable again: the full content as an update, even when it equals what was loaded first.
    rig.fs.write('/repo/AGENTS.md', 'use tabs')
    await touch(rig, agent, '/repo/README.md')
    expect(lastChanges(agent)).toEqual([{ action: 'replace', path: 'AGENTS.md' }])
    expect(textOf(instructionMessages(agent.session).at(-1)!)).toContain('Updated instructions from: AGENTS.md')
  })

  it.each([
    ['a failed tool result', { isError: true }],
    ['a tool signal aborted before post-execute', { aborted: true }],
    ['an inner listener block', { blockedByInner: true }],
  ])('ignores %s', async (_label, spec) => {
    const { rig, agent } = await started()
    const before = rig.fs.count()
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'], ...spec }] })
    expect(instructionMessages(agent.session)).toHaveLength(1)
    expect(rig.fs.count()).toBe(before)
  })

  it('does not deliver (and retries later) when an outer listener blocks the final result', async () => {
    const { rig, agent } = await started()
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'], blockedByOuter: true }] })
    expect(instructionMessages(agent.session)).toHaveLength(1)
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(lastChanges(agent)).toEqual([{ action: 'set', path: 'pkg/AGENTS.md' }])
  })

  it('delivers exactly once when a blocking outer listener forwards the contexts', async () => {
    const { rig, agent } = await started()
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'], blockedByOuterKeepingContexts: true }] })
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(changesOf(instructionMessages(agent.session).slice(1))).toEqual([{ action: 'set', path: 'pkg/AGENTS.md' }])
  })

  it('defers Code Mode sub-dispatch contexts onto the outer result without duplicating them', async () => {
    const { rig, agent } = await started()
    const entered = await rig.step(agent, { tools: [{ name: 'run_code', nested: [{ touched: ['/repo/pkg/a.ts'] }, { touched: ['/repo/pkg/deep/b.ts'] }] }] })
    expect(changesOf(entered.filter((m) => sourceOf(m) !== undefined))).toEqual([{ action: 'set', path: 'pkg/AGENTS.md' }])
  })

  it('projects a successful nested touch even when the composite result is blocked', async () => {
    const { rig, agent } = await started()
    await rig.step(agent, { tools: [{ name: 'run_code', blockedByOuterKeepingContexts: true, nested: [{ touched: ['/repo/pkg/a.ts'] }] }] })
    expect(lastChanges(agent)).toEqual([{ action: 'set', path: 'pkg/AGENTS.md' }])
  })

  it('does not treat headings inside instruction content as loaded state', async () => {
    const { rig, agent } = await started({ ...REPO, '/repo/AGENTS.md': 'Additional instructions from: pkg/AGENTS.md\nInstructions removed: pkg/AGENTS.md\n' })
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(lastChanges(agent)).toEqual([{ action: 'set', path: 'pkg/AGENTS.md' }])
  })

  it('does not attach anything when the budget is disabled', async () => {
    const rig = await new Rig({ files: REPO, config: { maxBytes: 0 } }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(instructionMessages(agent.session)).toHaveLength(0)
  })

  it('retries a nested file whose change only a budget notice could carry', async () => {
    // The budget holds the frame of 'short now' exactly, so not one byte of the 5000-byte file fits
    // next to its heading and the budget notice: the batch would be the notice alone.
    const budget = Buffer.byteLength(renderChangeBatch([{ action: 'set', scope: projectScope('pkg', 'base'), path: 'pkg/AGENTS.md', content: 'short now', digest: 'd' }], 65536).text)
    const tooBig = renderChangeBatch([{ action: 'set', scope: projectScope('pkg', 'base'), path: 'pkg/AGENTS.md', content: 'p'.repeat(5000), digest: 'd' }], budget)
    expect(tooBig.changes).toEqual([])
    const { rig, agent } = await started({ '/repo/.git/HEAD': 'ref', '/repo/pkg/AGENTS.md': 'p'.repeat(5000), '/repo/pkg/a.ts': 'a' }, { maxBytes: budget, maxFileShare: 1 })
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(instructionMessages(agent.session)).toEqual([])
    rig.fs.write('/repo/pkg/AGENTS.md', 'short now')
    await touch(rig, agent, '/repo/pkg/a.ts')
    expect(changesOf(instructionMessages(agent.session))).toEqual([{ action: 'set', path: 'pkg/AGENTS.md' }])
    expect(textOf(instructionMessages(agent.session)[0]!)).toContain('short now')
  })
})
