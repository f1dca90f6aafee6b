// Resume over a persisted log: history continues, the inbox is rebuilt, crash recovery.
import { afterEach, describe, expect, it } from 'vitest'
import { createUserMessage, deriveMessages, messageText, recoverInbox } from '../src/index.ts'
import { agentWith, fixture, type Fixture } from './helpers.ts'

let f: Fixture
afterEach(async () => f?.dispose())

describe('resume and inbox recovery', () => {
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

  it('rebuilds queued items and puts back items claimed by a step that never started', async () => {
    f = await fixture()
    const agent = await agentWith(f, { responses: [] })
    const queued = createUserMessage({ text: 'queued', source: { kind: 'user' } })
    const claimed = createUserMessage({ text: 'claimed then crashed', source: { kind: 'user' } })
    await agent.handle.inbox.append('next-turn', claimed)
    await agent.handle.inbox.append('next-step', queued)
    // Simulate a crash right after the claim splice: no step/start, no user/message.
    agent.session.append('agent/inbox/spliced', { target: 'next-turn', start: 0, removedIds: [claimed.id], inserted: [], outcome: 'claimed' })
    const recovered = recoverInbox(agent.session.events)
    expect(recovered.nextTurn.map((m) => m.id)).toEqual([claimed.id])
    expect(recovered.nextStep.map((m) => m.id)).toEqual([queued.id])
    agent.dispose()
    const resumed = await agentWith(f, { responses: [{ text: 'recovered' }] }, agent.session.id)
    expect(resumed.handle.inbox.nextTurn.map((m) => m.id)).toEqual([claimed.id])
    const result = await resumed.run()
    expect(result?.finalText).toBe('recovered')
    expect(deriveMessages(resumed.session).map(messageText)).toEqual(['claimed then crashed', 'queued', 'recovered'])
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
