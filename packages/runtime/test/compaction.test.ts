// Compaction replaces visible history before the last turn with one checkpoint.
import { afterEach, describe, expect, it } from 'vitest'
import { deriveMessages, messageText } from '../src/index.ts'
import { agentWith, contents, fixture, type Fixture } from './helpers.ts'

let f: Fixture
afterEach(async () => f?.dispose())

describe('compaction', () => {
  it('replaces earlier turns with a deterministic checkpoint and keeps the last turn', async () => {
    f = await fixture()
    const agent = await agentWith(f, { responses: [{ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }, { text: 'answer one' }, { text: 'answer two' }, { text: 'answer three' }] })
    await agent.prompt('prompt one')
    expect(agent.compact()).toBe(false)
    await agent.prompt('prompt two')
    const before = agent.session.events.length
    expect(agent.compact()).toBe(true)
    expect(agent.session.events.length).toBe(before + 1)
    const history = deriveMessages(agent.session).map((m) => `${m.role}:${messageText(m)}`)
    expect(history).toEqual([
      'user:[Conversation checkpoint] The earlier part of this session was compacted. Summary of what happened before:\n\nUser: prompt one\nCalled echo {"text":"x"}\n→ echo ok: echo: x\nAssistant: answer one\n\nContinue from here; ask the user if something you need is missing from this summary.',
      'user:prompt two',
      'assistant:answer two',
    ])
    await agent.prompt('prompt three')
    expect(contents(f.requests.at(-1)).slice(1)).toEqual(['prompt two', 'answer two', 'prompt three'])
  })
})
