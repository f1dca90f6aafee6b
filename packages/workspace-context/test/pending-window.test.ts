// The pending window: contexts between tools/result and their durable user/message count as seen;
// an aborted step discards them and the scopes become eligible again.
import { describe, expect, it } from 'vitest'
import type { SessionEvent, SessionView, ToolExecution, ToolFinalOutcome, UserMessage } from '@dsh/contracts'
import { PendingWindow } from '../src/pending-window.ts'
import { changesOf, instructionMessages, REPO } from './support/fixtures.ts'
import { message, Rig } from './support/rig.ts'

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
    const steps = agent.session.events.filter((e) => e.type === 'step/start').length
    const entered = await rig.step(agent, {
      tools: [
        { name: 'edit', touchKind: 'edit', touched: ['/repo/pkg/AGENTS.md'], effect: () => rig.fs.write('/repo/pkg/AGENTS.md', 'v2') },
        { name: 'grep', effect: () => rig.fs.remove('/repo/pkg/AGENTS.md') },
        { touched: ['/repo/pkg/a.ts'] },
      ],
    })
    expect(agent.session.events.filter((e) => e.type === 'step/start')).toHaveLength(steps + 1)
    expect(changesOf(entered)).toEqual([
      { action: 'replace', path: 'pkg/AGENTS.md' },
      { action: 'remove', path: 'pkg/AGENTS.md' },
    ])
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

  it('moves a nested Code Mode context onto the outer call and rolls it back when the outer result leaves it out', async () => {
    const rig = await new Rig({ files: REPO }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    // The composite drops its sub-dispatch contexts; a later call of the same step must not treat pkg as seen.
    const entered = await rig.step(agent, { tools: [{ name: 'run_code', dropNestedContexts: true, nested: [{ touched: ['/repo/pkg/a.ts'] }] }, { touched: ['/repo/pkg/a.ts'] }] })
    expect(changesOf(entered)).toEqual([{ action: 'set', path: 'pkg/AGENTS.md' }])
  })
})

function session(open: boolean): SessionView {
  const events: SessionEvent[] = [{ type: 'step/start', seq: 1, time: '', data: {} }, ...(open ? [] : [{ type: 'step/end', seq: 2, time: '', data: {} }])]
  return { header: { type: 'session', version: 1, id: 's', createdAt: '', cwd: '/repo', delegationDepth: 0 }, events, surface: [], replaceGeneration: 0, eventBySeq: () => undefined }
}
const execution = (token: symbol, parent?: symbol): ToolExecution => ({ callId: 'c', name: 'read', arguments: {}, signal: new AbortController().signal, token, ...(parent === undefined ? {} : { parent }) })
const outcome = (contexts: UserMessage[]): ToolFinalOutcome => ({ isError: false, content: '', touched: [], additionalContexts: contexts, status: 'ok' })

describe('pending window (unit)', () => {
  const context = message('ctx', { kind: 'workspace-instructions', version: 1, plugin: 'workspace-context', changes: [] })

  it('a nested context moves to the outer token, then counts as pending or is rolled back by the outer result', () => {
    for (const kept of [true, false]) {
      const window = new PendingWindow()
      const outer = Symbol('outer')
      const inner = Symbol('inner')
      const open = session(true)
      window.stage('s', inner, context)
      window.settle(execution(inner, outer), outcome([context]), open)
      // Still provisional, now decided by the outer execution (not dropped by the inner settle).
      expect(window.overlays('s')).toEqual([context])
      // An unrelated execution settling does not touch it.
      window.settle(execution(Symbol('other')), outcome([]), open)
      expect(window.overlays('s')).toEqual([context])
      window.settle(execution(outer), outcome(kept ? [context] : []), open)
      expect(window.overlays('s')).toEqual(kept ? [context] : [])
    }
  })

  it('a context dropped by the nested result itself never reaches the outer call', () => {
    const window = new PendingWindow()
    const outer = Symbol('outer')
    const inner = Symbol('inner')
    window.stage('s', inner, context)
    window.settle(execution(inner, outer), outcome([]), session(true))
    window.settle(execution(outer), outcome([context]), session(true))
    expect(window.overlays('s')).toEqual([])
  })
})

