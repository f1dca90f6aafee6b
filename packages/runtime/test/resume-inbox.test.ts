// Resume over a persisted log: history continues, the inbox is rebuilt, crash recovery.
import { afterEach, describe, expect, it } from 'vitest'
import { createUserMessage, deriveMessages, interruptedCallText, messageText, recoverInbox } from '../src/index.ts'
import { agentWith, contents, fixture, note, type Fixture } from './helpers.ts'

let f: Fixture
afterEach(async () => f?.dispose())

describe('resume and inbox recovery', () => {
  it('a turn interrupted mid-tool is closed on resume: the dangling call gets an error result and the prompt survives', async () => {
    f = await fixture()
    const agent = await agentWith(f, { responses: [] })
    const { session } = agent
    const prompt = createUserMessage({ text: 'do the thing', source: { kind: 'user' } })
    // What the log holds when the process is killed while the tool runs.
    session.append('agent/inbox/spliced', { target: 'next-turn', start: -1, removedIds: [], inserted: [prompt] })
    session.append('turn/start', { turn: 1 })
    session.append('agent/inbox/spliced', { target: 'next-turn', start: 0, removedIds: [prompt.id], inserted: [], outcome: 'claimed' })
    session.append('step/start', { turn: 1, step: 1 })
    session.append('user/message', { message: prompt, turn: 1, step: 1 }, { surfaceOp: 'append' })
    const call = { type: 'tool-call' as const, callId: 'c1', name: 'hang', arguments: '{}' }
    session.append('assistant/message', { turn: 1, step: 1, message: { id: 'a1', role: 'assistant', content: [call], source: { kind: 'model' } } }, { surfaceOp: 'append' })
    session.append('tool/call', { turn: 1, step: 1, callId: 'c1', name: 'hang', arguments: '{}' })
    agent.dispose()
    const resumed = await agentWith(f, { responses: [{ text: 'recovered' }] }, session.id)
    expect(resumed.session.events.slice(-3).map((e) => e.type)).toEqual(['tool/result', 'step/end', 'turn/end'])
    expect(resumed.session.events.at(-1)?.data).toEqual({ turn: 1, reason: 'error', error: 'interrupted: dsh stopped during this turn' })
    const result = await resumed.prompt('continue')
    expect(result).toMatchObject({ turn: 2, finalText: 'recovered' })
    const body = f.requests.at(-1)
    expect(body?.messages.slice(1).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user'])
    expect(body?.messages[3]).toEqual({ role: 'tool', tool_call_id: 'c1', content: interruptedCallText('hang') })
  })

  it('a prompt claimed by a turn that died before its step is closed as interrupted and shown, once, and never runs by itself', async () => {
    f = await fixture()
    const agent = await agentWith(f, { responses: [] })
    const prompt = createUserMessage({ text: 'lost?\nwith a second line', source: { kind: 'user' } })
    agent.session.append('agent/inbox/spliced', { target: 'next-turn', start: -1, removedIds: [], inserted: [prompt] })
    agent.session.append('turn/start', { turn: 1 })
    agent.session.append('agent/inbox/spliced', { target: 'next-turn', start: 0, removedIds: [prompt.id], inserted: [], outcome: 'claimed' })
    agent.dispose()
    const resumed = await agentWith(f, { responses: [{ text: 'answered the new prompt' }] }, agent.session.id)
    expect(f.logs).toEqual(['warning: a prompt queued before dsh stopped was not run: "lost? with a second line" (send it again to run it)'])
    expect(resumed.handle.inbox.nextTurn).toEqual([])
    expect(resumed.session.events.at(-1)?.data).toEqual({ target: 'next-turn', start: 0, removedIds: [prompt.id], inserted: [], outcome: 'interrupted' })
    expect(await resumed.run()).toBeUndefined()
    expect((await resumed.prompt('new prompt')).finalText).toBe('answered the new prompt')
    expect(f.requests.map(contents)).toEqual([['new prompt']])
    resumed.dispose()
    const again = await agentWith(f, { responses: [] }, agent.session.id)
    expect(f.logs).toHaveLength(1)
    expect(again.handle.inbox.nextTurn).toEqual([])
  })

  it('a prompt still queued when dsh stopped (a follow-up, a steer) is closed as interrupted; plugin context stays queued', async () => {
    f = await fixture()
    const agent = await agentWith(f, { responses: [] })
    const followup = createUserMessage({ text: 'then run the linter', source: { kind: 'user' } })
    const steer = createUserMessage({ text: 'use tabs', source: { kind: 'user' } })
    await agent.handle.inbox.append('next-turn', followup)
    await agent.handle.inbox.append('next-step', steer)
    await agent.handle.inject(note('plugin context'))
    agent.dispose()
    const resumed = await agentWith(f, { responses: [{ text: 'done' }] }, agent.session.id)
    expect(f.logs).toEqual([
      'warning: a prompt queued before dsh stopped was not run: "then run the linter" (send it again to run it)',
      'warning: a prompt queued before dsh stopped was not run: "use tabs" (send it again to run it)',
    ])
    expect(resumed.handle.inbox.nextTurn).toEqual([])
    expect(resumed.handle.inbox.nextStep.map(messageText)).toEqual(['plugin context'])
    await resumed.prompt('fresh start')
    expect(f.requests.map(contents)).toEqual([['fresh start', 'plugin context']])
  })

  it('a resumed agent continues the persisted history in a new loop instance', async () => {
    f = await fixture()
    const first = await agentWith(f, { responses: [{ text: 'one' }] })
    await first.prompt('first prompt')
    first.dispose()
    const seen: boolean[] = []
    f.host.ctx.on('agent/pre-step', async (payload, next) => {
      seen.push(payload.firstOfInstance)
      return next()
    })
    const resumed = await agentWith(f, { responses: [{ text: 'two' }] }, first.session.id)
    const result = await resumed.prompt('second prompt')
    expect(result).toMatchObject({ turn: 2, finalText: 'two' })
    expect(seen).toEqual([true])
    expect(f.requests.at(-1)?.messages.slice(1).map((m) => `${m.role}:${m.content}`)).toEqual(['user:first prompt', 'assistant:one', 'user:second prompt'])
  })

  it('rebuilds queued items and puts back context claimed by a step that never started', async () => {
    f = await fixture()
    const agent = await agentWith(f, { responses: [] })
    const queued = note('queued context')
    const claimed = note('claimed then crashed')
    await agent.handle.inbox.append('next-step', claimed)
    await agent.handle.inbox.append('next-step', queued)
    // Simulate a crash right after the claim splice: no step/start, no user/message.
    agent.session.append('agent/inbox/spliced', { target: 'next-step', start: 0, removedIds: [claimed.id], inserted: [], outcome: 'claimed' })
    const recovered = recoverInbox(agent.session.events)
    expect(recovered.lost.map((item) => [item.target, item.message.id])).toEqual([['next-step', claimed.id]])
    expect(recovered.nextStep.map((m) => m.id)).toEqual([queued.id])
    agent.dispose()
    const resumed = await agentWith(f, { responses: [{ text: 'recovered' }] }, agent.session.id)
    expect(resumed.handle.inbox.nextStep.map((m) => m.id)).toEqual([claimed.id, queued.id])
    const result = await resumed.prompt('go')
    expect(result.finalText).toBe('recovered')
    expect(deriveMessages(resumed.session).map(messageText)).toEqual(['go', 'claimed then crashed', 'queued context', 'recovered'])
  })

  it('a removed inbox item is logged as canceled and does not come back on recovery', async () => {
    f = await fixture()
    const agent = await agentWith(f, { responses: [] })
    const message = createUserMessage({ text: 'x', source: { kind: 'user' } })
    await agent.handle.inject(message)
    expect(await agent.handle.inbox.remove(message.id)).toBe(true)
    expect(await agent.handle.inbox.remove(message.id)).toBe(false)
    expect(recoverInbox(agent.session.events).nextStep).toEqual([])
    expect(agent.session.events.at(-1)?.data).toMatchObject({ outcome: 'canceled', removedIds: [message.id] })
  })
})
