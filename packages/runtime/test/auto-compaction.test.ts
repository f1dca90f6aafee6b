// Automatic compaction when the estimated request passes a share of the context window.
import { afterEach, describe, expect, it } from 'vitest'
import { createScriptedProvider } from '@dsh/llm-scripted'
import { deriveMessages, messageText } from '../src/index.ts'
import { fixture, type Fixture } from './helpers.ts'

let f: Fixture
afterEach(async () => f?.dispose())

const long = 'x'.repeat(3000)

describe('automatic compaction', () => {
  it('compacts earlier turns with a model-written summary once the window share is passed', async () => {
    f = await fixture()
    const provider = createScriptedProvider({ responses: [{ text: `first ${long}` }, { text: 'SUMMARY: the user asked twice' }, { text: 'second' }] }, { contextWindow: 1000 })
    const agent = await f.host.startAgent({ cwd: f.tree.path('work'), provider, autoCompact: { share: 0.5, useModel: true }, onRequest: (body) => f.requests.push(body) })
    const seen: string[] = []
    agent.onProgress((event) => seen.push(event.type === 'compacted' ? `compacted: ${event.summary}` : event.type))
    await agent.prompt('one')
    const result = await agent.prompt('two')
    expect(result.finalText).toBe('second')
    // The front ends hear of it where it happened: before the step that no longer carries the history.
    const compacted = seen.findIndex((line) => line.startsWith('compacted: '))
    expect(seen.slice(compacted - 1, compacted + 2).map((line) => line.split('\n')[0])).toEqual(['turn-end', expect.stringMatching(/^compacted: /), 'step-start'])
    expect(seen[compacted]).toContain('SUMMARY: the user asked twice')
    expect(seen.filter((line) => line.startsWith('compacted'))).toHaveLength(1)
    const history = deriveMessages(agent.session).map(messageText)
    expect(history[0]).toContain('SUMMARY: the user asked twice')
    expect(history.slice(1)).toEqual(['two', 'second'])
    const checkpoint = deriveMessages(agent.session)[0]
    expect(checkpoint?.source).toMatchObject({ kind: 'compaction', summarizer: 'model' })
  })

  it('falls back to the deterministic summary when the summary call fails, and stays off below the threshold', async () => {
    f = await fixture()
    const provider = createScriptedProvider({ responses: [{ text: `first ${long}` }] }, { contextWindow: 1000 })
    const agent = await f.host.startAgent({ cwd: f.tree.path('work'), provider, autoCompact: { share: 0.5, useModel: true } })
    await agent.prompt('one')
    // The summary call exhausts the script (fails), then the turn's own call also fails: the checkpoint is still deterministic.
    await expect(agent.prompt('two')).rejects.toThrow(/ran out of responses/)
    const first = deriveMessages(agent.session)[0]
    expect(first?.source).toMatchObject({ kind: 'compaction', summarizer: 'deterministic' })
    expect(messageText(first!)).toContain('User: one')

    const roomy = createScriptedProvider({ responses: [{ text: 'a' }, { text: 'b' }] }, { contextWindow: 1_000_000 })
    const calm = await f.host.startAgent({ cwd: f.tree.path('work'), provider: roomy, autoCompact: { share: 0.8, useModel: true } })
    await calm.prompt('one')
    await calm.prompt('two')
    expect(deriveMessages(calm.session).map(messageText)).toEqual(['one', 'a', 'two', 'b'])
  })
})

describe('automatic compaction inside one long turn', () => {
  it('compacts the older completed steps of the current turn, keeping the prompt and the latest step, and merges earlier checkpoints', async () => {
    f = await fixture()
    const echo = { toolCalls: [{ name: 'echo', arguments: { text: long } }] }
    const provider = createScriptedProvider({ responses: [echo, echo, { text: 'SUMMARY one' }, echo, { text: 'SUMMARY two' }, { text: 'done' }] }, { contextWindow: 1500 })
    const agent = await f.host.startAgent({ cwd: f.tree.path('work'), provider, autoCompact: { share: 0.5, useModel: true }, onRequest: (body) => f.requests.push(body) })
    const result = await agent.prompt('echo things')
    expect(result).toMatchObject({ reason: 'completed', finalText: 'done' })
    const replaces = agent.session.events.filter((event) => event.surfaceOp !== undefined && event.surfaceOp !== 'append')
    expect(replaces.map((event) => event.surfaceOp)).toEqual([
      { op: 'replace', start: 1, end: 3 },
      { op: 'replace', start: 1, end: 4 },
    ])
    expect(f.requests.filter((body) => (body.messages[0]?.content ?? '').startsWith('You write checkpoint summaries'))).toHaveLength(2)
    const history = deriveMessages(agent.session)
    expect(history.map((message) => message.role)).toEqual(['user', 'user', 'assistant', 'tool', 'assistant'])
    expect(messageText(history[0]!)).toBe('echo things')
    expect(messageText(history[1]!)).toContain('SUMMARY two')
    expect(messageText(history[3]!)).toBe(`echo: ${long}`)
  })

  it('does not compact when it would free too little, and says so once', async () => {
    f = await fixture()
    const small = { toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }
    const provider = createScriptedProvider({ responses: [small, small, small, { text: 'done' }] }, { contextWindow: 200 })
    const agent = await f.host.startAgent({ cwd: f.tree.path('work'), provider, autoCompact: { share: 0.5, useModel: false } })
    const result = await agent.prompt(`a long prompt ${long}`)
    expect(result.finalText).toBe('done')
    expect(agent.session.events.some((event) => event.surfaceOp !== undefined && event.surfaceOp !== 'append')).toBe(false)
    expect(f.logs.filter((line) => line.includes('would free too little'))).toHaveLength(1)
  })

  it('a cancel during the summary call ends the turn without leaving its prompt queued', async () => {
    f = await fixture()
    const provider = createScriptedProvider({ responses: [{ text: `first ${long}` }, { text: 'never', delayMs: 5_000 }, { text: 'third' }] }, { contextWindow: 1000 })
    const agent = await f.host.startAgent({ cwd: f.tree.path('work'), provider, autoCompact: { share: 0.5, useModel: true } })
    await agent.prompt('one')
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 50)
    expect((await agent.prompt('two', { signal: controller.signal })).reason).toBe('cancelled')
    expect(agent.handle.inbox.hasPending).toBe(false)
  })
})
