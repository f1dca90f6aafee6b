// The pending window: contexts between tools/result and their durable user/message count as seen;
// an aborted step discards them and the scopes become eligible again.
import { describe, expect, it } from 'vitest'
import { changesOf, instructionMessages, REPO } from './support/fixtures.ts'
import { Rig } from './support/rig.ts'

describe('pending window', () => {
  it('does not inject a scope twice for two touches in one step', async () => {
    const rig = await new Rig({ files: REPO }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    const entered = await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }, { touched: ['/repo/pkg/deep/b.ts'] }, { touched: ['/repo/pkg/a.ts'] }] })
    expect(changesOf(entered)).toEqual([{ action: 'set', path: 'pkg/AGENTS.md' }])
  })

  it('merges a second scope of the same step into a separate batch without repeating the first', async () => {
    const rig = await new Rig({ files: { ...REPO, '/repo/other/AGENTS.md': 'Other.' } }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    const entered = await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }, { touched: ['/repo/other/c.ts', '/repo/pkg/a.ts'] }] })
    expect(changesOf(entered)).toEqual([
      { action: 'set', path: 'pkg/AGENTS.md' },
      { action: 'set', path: 'other/AGENTS.md' },
    ])
  })

  it('drops pending contexts of an aborted step so the scope is offered again', async () => {
    const rig = await new Rig({ files: REPO }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }], abortAfterTools: true })
    expect(instructionMessages(agent.session)).toHaveLength(1)
    const entered = await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(changesOf(entered)).toEqual([{ action: 'set', path: 'pkg/AGENTS.md' }])
  })

  it('keeps an unchanged file on the read fast path after an aborted step without losing the retry', async () => {
    const rig = await new Rig({ files: REPO, config: { versionSettleMs: 0 } }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }], abortAfterTools: true })
    const entered = await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(changesOf(entered)).toEqual([{ action: 'set', path: 'pkg/AGENTS.md' }])
  })

  it('settles replacement then deletion in one step against the files, not against pending prose', async () => {
    const rig = await new Rig({ files: REPO }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    rig.fs.write('/repo/pkg/AGENTS.md', 'v2')
    const first = rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    const entered = await first
    expect(changesOf(entered)).toEqual([{ action: 'replace', path: 'pkg/AGENTS.md' }])
    rig.fs.remove('/repo/pkg/AGENTS.md')
    const next = await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(changesOf(next)).toEqual([{ action: 'remove', path: 'pkg/AGENTS.md' }])
  })

  it('serialises parallel tool calls of one step', async () => {
    const rig = await new Rig({ files: { ...REPO, '/repo/other/AGENTS.md': 'Other.' } }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    const entered = await rig.step(agent, { parallelTools: true, tools: [{ touched: ['/repo/pkg/a.ts'] }, { touched: ['/repo/pkg/a.ts', '/repo/other/c.ts'] }, { touched: ['/repo/pkg/deep/b.ts'] }] })
    expect(changesOf(entered)).toEqual([
      { action: 'set', path: 'pkg/AGENTS.md' },
      { action: 'set', path: 'other/AGENTS.md' },
    ])
  })
})
