// The page's chat state machine: streamed text extends the answer being streamed, a tool call's
// end fills in its row, approvals appear once and go when answered, a cancelled turn says so —
// and, for any sequence of stream events, no prompt is lost and no approval is shown twice.
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { HistoryAnswer, HistoryItem, WebEvent } from '../src/api-types.ts'
import { chatReducer, emptyChat, loadingChat, type ChatItem, type ChatState } from '../src/chat-state.ts'

const run = (events: readonly WebEvent[], start: ChatState = emptyChat): ChatState => events.reduce((state, event) => chatReducer(state, { kind: 'event', event, cancelledText: 'The turn was cancelled.' }), start)
const approval = (id: string): WebEvent => ({ kind: 'approval', approval: { id, tool: 'bash', code: 'ls', always: { kind: 'tool' }, alwaysTool: false } })
const withoutIds = (items: readonly ChatItem[]): unknown[] => items.map(({ id: _id, ...rest }) => rest)
const history = (items: HistoryItem[], busy: boolean, seq = 0): HistoryAnswer => ({ items, busy, seq, approvals: [], usage: { contextWindow: 0 } })

describe('chat state', () => {
  it('a discarding retry takes the partial answer off the page and says it retries; the answer then shows once', () => {
    const state = run([
      { kind: 'prompt', text: 'hi' },
      { kind: 'progress', event: { type: 'step-start', turn: 1, step: 1 } },
      { kind: 'progress', event: { type: 'text', text: 'The partial' } },
      { kind: 'progress', event: { type: 'retry', attempt: 2, maxAttempts: 5, detail: 'the stream stalled', discarded: true } },
      { kind: 'progress', event: { type: 'text', text: 'The whole answer.' } },
    ])
    expect(withoutIds(state.items)).toEqual([
      { kind: 'user', text: 'hi', turn: 1 },
      { kind: 'notice', text: 'the answer broke off (the stream stalled); retrying, attempt 2 of 5' },
      { kind: 'assistant', text: 'The whole answer.' },
    ])
  })

  it('an automatic compaction in a live turn leaves a note where it happened; a kind the page does not know changes nothing', () => {
    const state = run([
      { kind: 'prompt', text: 'hi' },
      { kind: 'progress', event: { type: 'step-start', turn: 1, step: 1 } },
      { kind: 'progress', event: { type: 'text', text: 'Reading.' } },
      { kind: 'progress', event: { type: 'compacted', summary: 'the summary' } },
      { kind: 'progress', event: { type: 'step-start', turn: 1, step: 2 } },
      { kind: 'progress', event: { type: 'text', text: 'Done.' } },
    ])
    expect(withoutIds(state.items)).toEqual([
      { kind: 'user', text: 'hi', turn: 1 },
      { kind: 'assistant', text: 'Reading.' },
      { kind: 'compacted', summary: 'the summary' },
      { kind: 'assistant', text: 'Done.' },
    ])
    // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- a progress kind from a newer host, which the type does not know.
    const unknown = { kind: 'progress', event: { type: 'from-the-future' } } as unknown as WebEvent
    expect(run([unknown], state)).toBe(state)
  })

  it('builds the transcript of a turn from its events', () => {
    const state = run([
      { kind: 'prompt', text: 'list files' },
      { kind: 'busy', busy: true },
      { kind: 'progress', event: { type: 'step-start', turn: 1, step: 1 } },
      { kind: 'progress', event: { type: 'text', text: 'Look' } },
      { kind: 'progress', event: { type: 'text', text: 'ing.' } },
      { kind: 'progress', event: { type: 'tool-start', callId: 'c1', name: 'bash', arguments: '{"command":"ls"}' } },
      approval('q1'),
      approval('q1'),
      { kind: 'approval-done', id: 'q1' },
      { kind: 'progress', event: { type: 'tool-end', callId: 'c1', name: 'bash', outcome: { isError: false, content: 'a.txt', status: 'ok' } } },
      { kind: 'progress', event: { type: 'step-start', turn: 1, step: 2 } },
      { kind: 'progress', event: { type: 'text', text: 'One file.' } },
      { kind: 'progress', event: { type: 'turn-end', turn: 1, reason: 'cancelled' } },
      { kind: 'busy', busy: false },
    ])
    expect(new Set(state.items.map((item) => item.id)).size).toBe(state.items.length)
    expect({ ...state, items: withoutIds(state.items) }).toEqual({
      ...emptyChat,
      next: 5,
      items: [
        // The turn's first step numbers the prompt (its "Rewind to here").
        { kind: 'user', text: 'list files', turn: 1 },
        { kind: 'assistant', text: 'Looking.' },
        { kind: 'tool', callId: 'c1', name: 'bash', arguments: '{"command":"ls"}', result: 'a.txt', isError: false },
        { kind: 'assistant', text: 'One file.' },
        { kind: 'notice', text: 'The turn was cancelled.' },
      ],
    })
  })

  it('a history read replaces the streamed items but keeps the notes of the latest turn', () => {
    const joined = chatReducer(emptyChat, { kind: 'history', history: history([{ kind: 'user', text: 'old' }, { kind: 'assistant', text: 'old answer' }, { kind: 'user', text: 'spell it' }], true), cancelledText: '' })
    const streamed = run([{ kind: 'progress', event: { type: 'text', text: 'papa' } }, { kind: 'progress', event: { type: 'turn-end', turn: 2, reason: 'cancelled' } }, { kind: 'busy', busy: false }], joined)
    const reread = chatReducer(streamed, { kind: 'history', history: history([{ kind: 'user', text: 'old' }, { kind: 'assistant', text: 'old answer' }, { kind: 'user', text: 'spell it' }, { kind: 'assistant', text: 'alpha papa' }], false), cancelledText: '' })
    expect(reread.items.slice(0, 3).every((item, index) => item === joined.items[index])).toBe(true)
    expect(withoutIds(reread.items)).toEqual([
      { kind: 'user', text: 'old' },
      { kind: 'assistant', text: 'old answer' },
      { kind: 'user', text: 'spell it' },
      { kind: 'assistant', text: 'alpha papa' },
      { kind: 'notice', text: 'The turn was cancelled.' },
    ])
    expect(reread.busy).toBe(false)
  })

  it('carries the checklist of each history read, and a history without one carries none', () => {
    const todos = [{ content: 'Fix the parser', status: 'in_progress' }] as const
    const read = chatReducer(emptyChat, { kind: 'history', history: { ...history([{ kind: 'compacted', summary: 'before' }], true), todos }, cancelledText: '' })
    expect(read.todos).toEqual(todos)
    expect(chatReducer(read, { kind: 'history', history: history([], false), cancelledText: '' }).todos).toEqual([])
  })

  it('keeps the object of every item an event did not change (so the page re-renders only the streamed one)', () => {
    const before = run([{ kind: 'prompt', text: 'a' }, { kind: 'progress', event: { type: 'text', text: 'x' } }])
    const after = run([{ kind: 'progress', event: { type: 'text', text: 'y' } }], before)
    expect(after.items[0]).toBe(before.items[0])
    expect(after.items[1]).not.toBe(before.items[1])
    expect(after.items[1]?.id).toBe(before.items[1]?.id)
  })

  it('holds events that come before the first history read, then applies only those after its number', () => {
    const prompt: WebEvent = { kind: 'prompt', text: 'hi' }
    const delta: WebEvent = { kind: 'progress', event: { type: 'text', text: 'Hel' } }
    const early = chatReducer(loadingChat, { kind: 'events', events: [{ seq: 1, event: prompt }, { seq: 2, event: delta }], cancelledText: '' })
    expect(early.items).toEqual([])
    const read = chatReducer(early, { kind: 'history', history: history([{ kind: 'user', text: 'hi' }], true, 1), cancelledText: '' })
    expect(withoutIds(read.items)).toEqual([{ kind: 'user', text: 'hi' }, { kind: 'assistant', text: 'Hel' }])
    const again = chatReducer(read, { kind: 'events', events: [{ seq: 2, event: delta }, { seq: 3, event: { kind: 'progress', event: { type: 'text', text: 'lo' } } }], cancelledText: '' })
    expect(withoutIds(again.items)).toEqual([{ kind: 'user', text: 'hi' }, { kind: 'assistant', text: 'Hello' }])
  })

  it('keeps reasoning apart from the answer', () => {
    const state = run([{ kind: 'progress', event: { type: 'reasoning', text: 'hm' } }, { kind: 'progress', event: { type: 'reasoning', text: 'm' } }, { kind: 'progress', event: { type: 'text', text: 'Yes.' } }])
    expect(withoutIds(state.items)).toEqual([{ kind: 'reasoning', text: 'hmm' }, { kind: 'assistant', text: 'Yes.' }])
  })

  it('keeps every prompt, in order, and never shows one approval twice, for any event sequence', () => {
    const event: fc.Arbitrary<WebEvent> = fc.oneof(
      fc.string({ maxLength: 5 }).map((text): WebEvent => ({ kind: 'prompt', text })),
      fc.boolean().map((busy): WebEvent => ({ kind: 'busy', busy })),
      fc.constantFrom('a', 'b', 'c').map(approval),
      fc.constantFrom('a', 'b', 'c').map((id): WebEvent => ({ kind: 'approval-done', id })),
      fc.string({ maxLength: 5 }).map((text): WebEvent => ({ kind: 'progress', event: { type: 'text', text } })),
      fc.constantFrom('c1', 'c2').map((callId): WebEvent => ({ kind: 'progress', event: { type: 'tool-start', callId, name: 'bash', arguments: '{}' } })),
      fc.constantFrom('c1', 'c2').map((callId): WebEvent => ({ kind: 'progress', event: { type: 'tool-end', callId, name: 'bash', outcome: { isError: false, content: 'ok', status: 'ok' } } })),
      fc.constantFrom('done', 'cancelled').map((reason): WebEvent => ({ kind: 'progress', event: { type: 'turn-end', turn: 1, reason } })),
    )
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => {
        const state = run(events)
        const prompts = events.flatMap((item) => (item.kind === 'prompt' ? [item.text] : []))
        expect(state.items.flatMap((item) => (item.kind === 'user' ? [item.text] : []))).toEqual(prompts)
        const ids = state.approvals.map((item) => item.id)
        expect(new Set(ids).size).toBe(ids.length)
        const lastBusy = events.findLast((item) => item.kind === 'busy')
        expect(state.busy).toBe(lastBusy?.kind === 'busy' ? lastBusy.busy : false)
        const texts = events.flatMap((item) => (item.kind === 'progress' && item.event.type === 'text' ? [item.event.text] : [])).join('')
        expect(state.items.flatMap((item) => (item.kind === 'assistant' ? [item.text] : [])).join('')).toBe(texts)
      }),
      { numRuns: 300 },
    )
  })
})
