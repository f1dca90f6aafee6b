// Baseline delivery: composed once per loop instance, folded into the first entering pre-step
// right after the claimed prompt as one durable framed message, queued (never duplicated) when
// the step is rejected or enters nothing.
import { describe, expect, it } from 'vitest'
import { changesOf, instructionMessages, REPO, sourceOf, textOf } from './support/fixtures.ts'
import { FakeFileSystem } from './support/fake-fs.ts'
import { message, Rig } from './support/rig.ts'

describe('baseline delivery', () => {
  it('enters the baseline right after the claimed prompt, before later contributions', async () => {
    const rig = await new Rig({ files: REPO }).start()
    rig.ctx.on('agent/pre-step', async (payload, next) => {
      const decision = await next()
      return decision.kind === 'enter' ? { kind: 'enter', messages: [...decision.messages, message('late note', { kind: 'plugin', plugin: 'x', form: 'notice' })] } : decision
    })
    const agent = rig.agent('/repo/pkg')
    const entered = await rig.step(agent, { prompt: 'hello' })
    expect(entered.map(textOf)[0]).toBe('hello')
    expect(sourceOf(entered[1] ?? entered[0]!)?.baseline).toBe(true)
    expect(textOf(entered[2]!)).toBe('late note')
    expect(changesOf([entered[1]!])).toEqual([
      { action: 'set', path: '~/.dsh/AGENTS.md' },
      { action: 'set', path: 'AGENTS.md' },
      { action: 'set', path: 'pkg/AGENTS.md' },
    ])
    expect(agent.inbox.nextStep).toEqual([])
  })

  it('loads user-global first, then every root-to-cwd file, with a .git file as the root marker', async () => {
    const rig = await new Rig({ files: { '/w/.git': 'gitdir: elsewhere', '/w/AGENTS.md': 'W', '/w/a/b/CLAUDE.md': 'B', '/AGENTS.md': 'above root', '/home/user/.dsh/AGENTS.md': 'G' } }).start()
    const agent = rig.agent('/w/a/b')
    await rig.step(agent, { prompt: 'p' })
    const [baseline] = instructionMessages(agent.session)
    expect(changesOf([baseline!]).map((c) => c.path)).toEqual(['~/.dsh/AGENTS.md', 'AGENTS.md', 'a/b/CLAUDE.md'])
    expect(textOf(baseline!)).not.toContain('above root')
  })

  it('uses the cwd itself as root when no marker exists', async () => {
    const rig = await new Rig({ files: { '/x/AGENTS.md': 'X', '/x/y/AGENTS.md': 'Y' } }).start()
    const agent = rig.agent('/x/y')
    await rig.step(agent, { prompt: 'p' })
    expect(changesOf(instructionMessages(agent.session)).map((c) => c.path)).toEqual(['AGENTS.md'])
    expect(textOf(instructionMessages(agent.session)[0]!)).toContain('Y')
  })

  it('carries a typed source and no absolute machine paths or hidden markers', async () => {
    const rig = await new Rig({ files: REPO }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    const [baseline] = instructionMessages(agent.session)
    const text = textOf(baseline!)
    expect(text).not.toContain('/repo')
    expect(text).not.toContain('/home/user')
    expect(text).not.toMatch(/<!--|workspace-context|digest/u)
    const source = sourceOf(baseline!)
    expect(source).toMatchObject({ kind: 'workspace-instructions', version: 1, plugin: 'workspace-context', baseline: true })
    expect(JSON.parse(source?.baselineIdentity ?? '{}')).toMatchObject({ projectRoot: '', maxBytes: 65536 })
    expect(source?.changes[0]?.digest).toMatch(/^[0-9a-f]{64}$/u)
  })

  it('labels a custom home as $DSH_HOME', async () => {
    const rig = await new Rig({ files: { '/repo/.git/x': '', '/custom/AGENTS.md': 'C' }, config: { dshHome: '/custom' } }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    expect(textOf(instructionMessages(agent.session)[0]!)).toContain('Instructions from: $DSH_HOME/AGENTS.md')
  })

  it('loads a default local overlay after the base file, and none when overlays are disabled', async () => {
    const files = { ...REPO, '/repo/AGENTS.local.md': 'Local.', '/repo/CLAUDE.local.md': 'Second local.' }
    const rig = await new Rig({ files }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    expect(changesOf(instructionMessages(agent.session)).map((c) => c.path)).toEqual(['~/.dsh/AGENTS.md', 'AGENTS.md', 'AGENTS.local.md'])
    const off = await new Rig({ files, config: { localInstructionFileCandidates: [] } }).start()
    const other = off.agent('/repo')
    await off.step(other, { prompt: 'p' })
    expect(changesOf(instructionMessages(other.session)).map((c) => c.path)).toEqual(['~/.dsh/AGENTS.md', 'AGENTS.md'])
  })

  it('leaves the request unchanged when no instruction files exist', async () => {
    const rig = await new Rig({ files: { '/e/.git/x': '' } }).start()
    const agent = rig.agent('/e')
    const entered = await rig.step(agent, { prompt: 'p' })
    expect(entered.map(textOf)).toEqual(['p'])
  })

  it.each([
    ['maxBytes is zero', { config: { maxBytes: 0 } }],
    ['maxBytes is negative', { config: { maxBytes: -1 } }],
    ['no filesystem provider exists', { withFs: false }],
  ])('injects nothing and touches nothing when %s', async (_label, options) => {
    const rig = await new Rig({ files: REPO, ...options }).start()
    const agent = rig.agent('/repo')
    const entered = await rig.step(agent, { prompt: 'p', tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(entered.map(textOf)).toEqual(['p'])
    expect(rig.fs.count()).toBe(0)
  })

  it('uses the filesystem the host provides now: one provided later, and one that replaced it', async () => {
    const rig = await new Rig({ files: REPO, withFs: false }).start()
    const agent = rig.agent('/repo')
    expect((await rig.step(agent, { prompt: 'p' })).map(textOf)).toEqual(['p'])
    const withdraw = rig.ctx.provide('fs', rig.fs)
    await rig.step(agent, { prompt: 'q', tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(changesOf(instructionMessages(agent.session)).map((c) => c.path)).toEqual(['~/.dsh/AGENTS.md', 'AGENTS.md', 'pkg/AGENTS.md'])
    // Another filesystem where pkg/deep has instructions of its own: the next touch reads it there.
    withdraw()
    rig.ctx.provide('fs', new FakeFileSystem({ ...REPO, '/repo/pkg/deep/AGENTS.md': 'Deep rules.\n' }))
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/deep/b.ts'] }] })
    expect(changesOf(instructionMessages(agent.session).slice(-1)).map((c) => c.path)).toEqual(['pkg/deep/AGENTS.md'])
  })

  it('queues the baseline when the first step is rejected, then enters it exactly once', async () => {
    const rig = await new Rig({ files: REPO }).start()
    const agent = rig.agent('/repo')
    expect(await rig.step(agent, { prompt: 'p', reject: true })).toEqual([])
    expect(agent.inbox.nextStep.map((m) => sourceOf(m)?.baseline)).toEqual([true])
    await rig.step(agent, { prompt: 'again', reject: true })
    expect(agent.inbox.nextStep).toHaveLength(1)
    const entered = await rig.step(agent, { prompt: 'third' })
    expect(entered.map((m) => sourceOf(m)?.baseline ?? false)).toEqual([false, true])
    expect(instructionMessages(agent.session)).toHaveLength(1)
  })

  it('leaves the baseline queued when a first step enters nothing, and enters it with the next prompt', async () => {
    const rig = await new Rig({ files: REPO }).start()
    const agent = rig.agent('/repo')
    // A wake-up without a prompt: the first step of a turn with an empty batch owns no step.
    const decision = await rig.preStep(agent, [], 1)
    expect(decision).toEqual({ kind: 'enter', messages: [] })
    expect(agent.inbox.nextStep.map((m) => sourceOf(m)?.baseline)).toEqual([true])
    expect(instructionMessages(agent.session)).toHaveLength(0)
    const entered = await rig.step(agent, { prompt: 'now' })
    expect(entered.map((m) => sourceOf(m)?.baseline ?? textOf(m))).toEqual(['now', true])
  })

  it('corrects a queued baseline whose file changed before it entered', async () => {
    const rig = await new Rig({ files: REPO }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p', reject: true })
    rig.fs.write('/repo/AGENTS.md', 'Root rules v2.')
    const entered = await rig.step(agent, { prompt: 'q' })
    const instructions = entered.filter((m) => sourceOf(m) !== undefined)
    expect(instructions.map((m) => sourceOf(m)?.baseline === true)).toEqual([true, false])
    expect(textOf(instructions[1]!)).toContain('Updated instructions from: AGENTS.md')
    expect(textOf(instructions[1]!)).toContain('Root rules v2.')
  })

  it('composes the baseline once per loop instance, not per step', async () => {
    const rig = await new Rig({ files: REPO }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    const calls = rig.fs.count()
    await rig.step(agent, {})
    await rig.step(agent, { prompt: 'next turn' })
    expect(instructionMessages(agent.session)).toHaveLength(1)
    expect(rig.fs.count()).toBe(calls)
  })

  it('keeps sessions with different cwds isolated in one host', async () => {
    const rig = await new Rig({ files: { ...REPO, '/other/.git/x': '', '/other/AGENTS.md': 'Other rules.' } }).start()
    const a = rig.agent('/repo')
    const b = rig.agent('/other')
    await rig.step(a, { prompt: 'p' })
    await rig.step(b, { prompt: 'p' })
    expect(textOf(instructionMessages(a.session)[0]!)).toContain('Root rules.')
    expect(textOf(instructionMessages(a.session)[0]!)).not.toContain('Other rules.')
    expect(textOf(instructionMessages(b.session)[0]!)).toContain('Other rules.')
  })

  it('removes its listeners when the plugin fiber is disposed', async () => {
    const rig = await new Rig({ files: REPO }).start()
    await rig.pluginFiber?.dispose()
    const agent = rig.agent('/repo')
    const entered = await rig.step(agent, { prompt: 'p', tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(entered.map(textOf)).toEqual(['p'])
  })

  it('propagates a pre-step abort with its reason', async () => {
    const rig = await new Rig({ files: REPO }).start()
    rig.fs.faults.hangRead.add('/repo/AGENTS.md')
    const agent = rig.agent('/repo')
    const controller = new AbortController()
    const reason = new Error('user cancelled')
    void rig.fs.nextHang().then(() => controller.abort(reason))
    await expect(rig.step(agent, { prompt: 'p', signal: controller.signal })).rejects.toBe(reason)
  })
})
