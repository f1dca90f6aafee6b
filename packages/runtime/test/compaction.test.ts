// Compaction at rest (agent.compact, dsh compact, /compact): everything completed becomes one
// checkpoint, the last turn included, and the user's latest prompt is kept verbatim.
import { afterEach, describe, expect, it } from 'vitest'
import { deriveMessages, messageText, planCompaction } from '../src/index.ts'
import { agentWith, contents, fixture, type Fixture } from './helpers.ts'

let f: Fixture
afterEach(async () => f?.dispose())

const head = '[Conversation checkpoint] The earlier part of this session was compacted. Summary of what happened before:\n\n'
const tail = '\n\nContinue from here; ask the user if something you need is missing from this summary.'
const echo = (text: string) => ({ toolCalls: [{ name: 'echo', arguments: { text } }] })
const visible = (agent: { session: Parameters<typeof deriveMessages>[0] }) => deriveMessages(agent.session).map((m) => `${m.role}:${messageText(m)}`)

describe('compaction at rest', () => {
  it('compacts a session of one long turn, keeping its prompt verbatim', async () => {
    f = await fixture()
    const agent = await agentWith(f, { responses: [echo('a'), echo('b'), echo('c'), { text: 'all three echoed' }, { text: 'next answer' }] })
    await agent.prompt('echo a, b and c')
    expect(agent.session.surface).toHaveLength(8)
    expect(agent.compact()).toBe(true)
    expect(visible(agent)).toEqual([
      `user:${head}User: echo a, b and c\nCalled echo {"text":"a"}\n→ echo ok: echo: a\nCalled echo {"text":"b"}\n→ echo ok: echo: b\nCalled echo {"text":"c"}\n→ echo ok: echo: c\nAssistant: all three echoed\n\nThe user's latest request, verbatim:\n\necho a, b and c${tail}`,
    ])
    await agent.prompt('and now?')
    expect(contents(f.requests.at(-1))).toEqual([expect.stringContaining("The user's latest request, verbatim:\n\necho a, b and c"), 'and now?'])
  })

  it('compacts every turn, the last one included; a prompt longer than the summary keeps is kept whole', async () => {
    f = await fixture()
    const long = `please ${'do the thing carefully '.repeat(150)}end`
    const agent = await agentWith(f, { responses: [{ text: 'answer one' }, { text: 'answer two' }] })
    await agent.prompt('prompt one')
    await agent.prompt(long)
    expect(agent.compact()).toBe(true)
    const [checkpoint, ...rest] = visible(agent)
    expect(rest).toEqual([])
    expect(checkpoint).toContain('User: prompt one\nAssistant: answer one\nUser: please do the thing')
    expect(checkpoint?.endsWith(`The user's latest request, verbatim:\n\n${long}${tail}`)).toBe(true)
  })

  it('has nothing to do twice in a row, or before any turn', async () => {
    f = await fixture()
    const agent = await agentWith(f, { responses: [{ text: 'answer' }] })
    expect(agent.compact()).toBe(false)
    await agent.prompt('prompt')
    expect(agent.compact()).toBe(true)
    expect(agent.compact()).toBe(false)
    expect(deriveMessages(agent.session)).toHaveLength(1)
  })

  it('leaves out a turn cut off by a crash (it is not completed)', async () => {
    f = await fixture()
    const agent = await agentWith(f, { responses: [{ text: 'answer one' }] })
    await agent.prompt('prompt one')
    agent.session.append('turn/start', { turn: 2 })
    const plan = planCompaction(agent.session, { scope: 'at-rest' })
    expect(plan?.messages.map(messageText)).toEqual(['prompt one', 'answer one'])
    expect(plan?.keptPrompt).toBe('prompt one')
  })
})
