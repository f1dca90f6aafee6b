// The objective anchor through the real kernel: empty until a person speaks, latest wins at the
// top level, notices never become the anchor, {{…}} is defused, long instructions are clipped,
// children adopt their delegation (only when opted in), message delivery, and strict mode.
import { afterEach, describe, expect, it } from 'vitest'
import type { SessionEvent, SessionHeader } from '@dsh/contracts'
import { createUserMessage } from '@dsh/runtime'
import { AnchorTracker } from '../src/anchor-source.ts'
import { call, notices, rig, systemOf, userTexts, type Rig } from './support/rig.ts'

let r: Rig | undefined
afterEach(async () => {
  await r?.dispose()
  r = undefined
})

/** The latest anchor the request carries (a user-role message; the system prompt never holds one). */
function anchorOf(body: Parameters<typeof userTexts>[0]): string {
  expect(systemOf(body)).not.toMatch(/## (Current objective|Your delegated task)/u)
  return userTexts(body).findLast((text) => /^## (Current objective|Your delegated task)/u.test(text)) ?? ''
}

const ANCHOR = (quote: string) =>
  [
    "## Current objective — the user's latest instruction",
    '',
    quote,
    '',
    "This is the instruction your current work answers to. It is quoted from the user's most recent message, so it outranks anything you have concluded since.",
    '',
    'When these disagree, follow this order:',
    "1. the user's latest instruction, quoted above",
    '2. the plan you stated in your own previous turn',
    '3. a lead, idea or side-quest you found on your own',
    '',
    'Anything the first item does not cover is your own excursion, not the task. Say so in one line before you spend another step on it, and ask before it costs more than that.',
  ].join('\n')

const event = (seq: number, message: ReturnType<typeof createUserMessage>): SessionEvent => ({ type: 'user/message', seq, time: '', data: { message } })

describe('objective anchor', () => {
  it('is empty until a person has spoken, then quotes the latest instruction verbatim', async () => {
    r = await rig()
    const agent = await r.start([{ text: 'one' }, { text: 'two' }])
    expect(r.host.systemPrompt.assemble({ cwd: r.cwd }, { agent: agent.handle })).not.toContain('## Current objective')
    await agent.prompt('Fix the estimate.\nThat is task 1; task 2 follows.')
    await agent.prompt('Now task 2: the report.')
    expect(anchorOf(r.requests[0])).toBe(ANCHOR('> Fix the estimate.\n> That is task 1; task 2 follows.'))
    expect(anchorOf(r.requests[1])).toBe(ANCHOR('> Now task 2: the report.'))
    // Durable and append-only: the first anchor stays where it was, the system prompt never changes.
    expect(userTexts(r.requests[1]).filter((text) => text.startsWith('## Current objective'))).toEqual([ANCHOR('> Fix the estimate.\n> That is task 1; task 2 follows.'), ANCHOR('> Now task 2: the report.')])
    expect(systemOf(r.requests[1])).toBe(systemOf(r.requests[0]))
  })

  it('arrives right after the instruction it quotes, once per instruction, not at every step', async () => {
    r = await rig({ 'repo/a.md': 'a\n' })
    const agent = await r.start([call('read', { file_path: 'a.md' }), { text: 'done' }])
    await agent.prompt('Read a.md.')
    const texts = userTexts(r.requests[1])
    expect(texts.filter((text) => text.startsWith('## Current objective'))).toHaveLength(1)
    expect(texts.indexOf('Read a.md.')).toBeGreaterThanOrEqual(0)
    expect(texts.indexOf(ANCHOR('> Read a.md.'))).toBeGreaterThan(texts.indexOf('Read a.md.'))
  })

  it('never quotes the guard\'s own notices', async () => {
    r = await rig()
    const agent = await r.start([call('bash', { command: 'echo hi' }), { text: 'done' }])
    await agent.prompt('Say hi.')
    expect(notices(r.requests[1])).toHaveLength(1)
    expect(anchorOf(r.requests[1])).toBe(ANCHOR('> Say hi.'))
  })

  it('defuses {{…}} so a typed placeholder cannot break prompt assembly', async () => {
    r = await rig()
    const agent = await r.start([{ text: 'ok' }])
    await agent.prompt('Render {{nobody}} and {{cwd}} literally')
    expect(anchorOf(r.requests[0])).toContain('> Render { {nobody} } and { {cwd} } literally')
  })

  it('clips a long instruction to maxChars', async () => {
    r = await rig({}, { config: { anchor: { maxChars: 12 } } })
    const agent = await r.start([{ text: 'ok' }])
    await agent.prompt('abcdefghijklmnopqrstuvwxyz')
    expect(anchorOf(r.requests[0])).toContain('> abcdefghijkl… (truncated)\n')
  })

  it('appends the strict answer contract while strict mode is on', async () => {
    r = await rig({}, { config: { strictOnTopic: true } })
    const agent = await r.start([{ text: 'ok' }])
    await agent.prompt('Answer me.')
    expect(anchorOf(r.requests[0])).toBe(
      `${ANCHOR('> Answer me.')}\n\nStrict on-topic mode is on. Open your final answer with the answer itself, not a recap or a status report. Put any reflection after it, marked as an addendum. Stop at the edge of the instruction and say that you stopped there. Take an excursion only when you can name the part of the instruction it serves; otherwise ask.`,
    )
  })

  it('can travel as a notice on the tool-call path, once per distinct text', async () => {
    r = await rig({ 'repo/a.md': 'a\n' }, { config: { anchor: { delivery: 'message' } } })
    const read = call('read', { file_path: 'a.md' }, 'Reading a.md.')
    const agent = await r.start([read, read, { text: 'done' }])
    await agent.prompt('Read a.md twice.')
    expect(anchorOf(r.requests[0])).toBe('')
    const anchors = userTexts(r.requests[2]).filter((text) => text.startsWith('## Current objective'))
    expect(anchors).toEqual([ANCHOR('> Read a.md twice.')])
  })

  describe('in a delegated child', () => {
    const parent = [{ toolCalls: [{ name: 'subagent', arguments: { prompt: 'Allow trailing commas in the parser.' } }] }, { text: 'done' }]

    it('is off by default and with an unrecognised switch value', async () => {
      for (const inSubagents of [undefined, 'yes please']) {
        r = await rig({}, { childScript: [{ text: 'child done' }], config: inSubagents === undefined ? {} : { anchor: { inSubagents } } })
        const agent = await r.start(parent)
        await agent.prompt('Delegate the parser change.')
        expect(anchorOf(r.childRequests[0])).toBe('')
        await r.dispose()
        r = undefined
      }
    })

    it('quotes the delegation with the child wording when opted in', async () => {
      r = await rig({}, { childScript: [{ text: 'child done' }], config: { anchor: { inSubagents: true } } })
      const agent = await r.start(parent)
      await agent.prompt('Delegate the parser change.')
      const anchor = anchorOf(r.childRequests[0])
      expect(anchor).toMatch(/^## Your delegated task — what you were sent here to do\n\n> This is a delegated task\./u)
      expect(anchor).toContain('> Allow trailing commas in the parser.')
      expect(anchor).not.toContain('Delegate the parser change.')
      expect(anchor).toContain('This is the task you were delegated, quoted from the message that started your session. It outranks anything you have concluded since, and it does not grow because something looks interesting.')
      expect(anchor).toContain('1. the delegated task, quoted above')
      expect(anchor).toContain('Anything the task does not cover is an excursion: mention it in your final answer instead of pursuing it.')
    })

    it('keeps the adopted delegation when a later message arrives', () => {
      const header: SessionHeader = { type: 'session', version: 1, id: 'c', createdAt: '', cwd: '/w', delegationDepth: 1, origin: 'subagent', parentSession: 'p' }
      const tracker = new AnchorTracker(header)
      const events = [
        event(1, createUserMessage({ text: 'the delegated task', source: { kind: 'delegation', parentSession: 'p', parentCallId: 'x' } })),
        event(2, createUserMessage({ text: 'a later send', source: { kind: 'user' } })),
      ]
      expect(tracker.current(events)).toBe('the delegated task')
      const top = new AnchorTracker({ type: 'session', version: 1, id: 't', createdAt: '', cwd: '/w', delegationDepth: 0 })
      expect(top.current(events)).toBe('a later send')
    })
  })
})
