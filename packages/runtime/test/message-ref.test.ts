// A large prompt is stored once (issue 22 F17): the entered user/message refers to the splice that queued it.
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { createUserMessage, dataOf, readSessionFile } from '../src/index.ts'
import { MESSAGE_REF_MIN_CHARS } from '../src/message-ref.ts'
import { agentWith, contents, fixture, type Fixture } from './helpers.ts'

let f: Fixture
afterEach(async () => f?.dispose())

const fileOf = (id: string): string => f.tree.path(`home/sessions/${id}.jsonl`)

describe('a large prompt in the session file', () => {
  it('is stored once, and loading gives the entered message back whole', async () => {
    f = await fixture()
    const agent = await agentWith(f, { responses: [{ text: 'first' }, { text: 'second' }] })
    const prompt = `BEGIN ${'x'.repeat(MESSAGE_REF_MIN_CHARS)} END`
    await agent.prompt(prompt)
    agent.dispose()
    const file = fileOf(agent.session.id)
    expect(statSync(file).size).toBeLessThan(prompt.length * 1.1)
    const stored = readFileSync(file, 'utf8').split('\n').find((line) => line.startsWith('{"type":"user/message"')) ?? ''
    expect(stored.length).toBeLessThan(400)
    expect(stored).toMatch(/"messageRef":\{"seq":1,"id":"[^"]+"\}/)
    const live = agent.session.events.find((event) => event.type === 'user/message')
    const loaded = readSessionFile(file).events.find((event) => event.type === 'user/message')
    expect(loaded).toEqual(live)
    expect(loaded === undefined ? '' : dataOf(loaded, 'user/message')?.message.content[0]?.text).toBe(prompt)
    const resumed = await agentWith(f, { responses: [{ text: 'second' }] }, agent.session.id)
    await resumed.prompt('and?')
    expect(contents(f.requests.at(-1))).toEqual([prompt, 'first', 'and?'])
  })

  it('a prompt under the threshold is stored in both lines, as before', async () => {
    f = await fixture()
    const agent = await agentWith(f, { responses: [{ text: 'ok' }] })
    const prompt = 'y'.repeat(MESSAGE_REF_MIN_CHARS - 1)
    await agent.prompt(prompt)
    agent.dispose()
    expect(statSync(fileOf(agent.session.id)).size).toBeGreaterThan(prompt.length * 2)
    expect(readFileSync(fileOf(agent.session.id), 'utf8')).not.toContain('messageRef')
  })

  it('a reference to no earlier splice of that message is a malformed line naming it', async () => {
    f = await fixture()
    const agent = await agentWith(f, { responses: [] })
    const prompt = createUserMessage({ text: 'short', source: { kind: 'user' } })
    agent.session.append('agent/inbox/spliced', { target: 'next-turn', start: -1, removedIds: [], inserted: [prompt] })
    agent.session.append('user/message', { turn: 1, step: 1, messageRef: { seq: 1, id: 'other' } }, { surfaceOp: 'append' })
    agent.dispose()
    const file = fileOf(agent.session.id)
    expect(() => readSessionFile(file)).toThrow(`${file}:3: invalid user/message event (data.messageRef: no earlier agent/inbox/spliced event 1 inserts message other)`)
    writeFileSync(file, readFileSync(file, 'utf8').replace('"id":"other"', `"id":"${prompt.id}"`))
    expect(readSessionFile(file).events.at(-1)?.data).toEqual({ turn: 1, step: 1, message: prompt })
  })
})
