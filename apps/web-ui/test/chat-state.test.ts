// The page's chat state machine: streamed text extends the answer being streamed, a tool call's
// end fills in its row, approvals appear once and go when answered, a cancelled turn says so —
// and, for any sequence of stream events, no prompt is lost and no approval is shown twice.
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { WebEvent } from '../src/api-types.ts'
import { chatReducer, emptyChat, type ChatState } from '../src/chat-state.ts'

const run = (events: readonly WebEvent[], start: ChatState = emptyChat): ChatState => events.reduce((state, event) => chatReducer(state, { kind: 'event', event, cancelledText: 'The turn was cancelled.' }), start)
const approval = (id: string): WebEvent => ({ kind: 'approval', approval: { id, tool: 'bash', code: 'ls', always: { kind: 'tool' } } })

describe('chat state', () => {
  it('a discarding retry takes the partial answer off the page and says it retries; the answer then shows once', () => {
    const state = run([
      { kind: 'prompt', text: 'hi' },
      { kind: 'progress', event: { type: 'step-start', turn: 1, step: 1 } },
      { kind: 'progress', event: { type: 'text', text: 'The partial' } },
      { kind: 'progress', event: { type: 'retry', attempt: 2, maxAttempts: 5, detail: 'the stream stalled', discarded: true } },
      { kind: 'progress', event: { type: 'text', text: 'The whole answer.' } },
    ])
    expect(state.items).toEqual([
      { kind: 'user', text: 'hi' },
      { kind: 'notice', text: 'the answer broke off (the stream stalled); retrying, attempt 2 of 5' },
      { kind: 'assistant', text: 'The whole answer.' },
    ])
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
    expect(state).toEqual({
      items: [
        { kind: 'user', text: 'list files' },
        { kind: 'assistant', text: 'Looking.' },
        { kind: 'tool', callId: 'c1', name: 'bash', arguments: '{"command":"ls"}', result: 'a.txt', isError: false },
        { kind: 'assistant', text: 'One file.' },
        { kind: 'notice', text: 'The turn was cancelled.' },
      ],
      approvals: [],
      busy: false,
      streaming: false,
    })
  })

  it('a history read replaces the streamed items but keeps the notes of the latest turn', () => {
    const joined = chatReducer(emptyChat, { kind: 'history', items: [{ kind: 'user', text: 'old' }, { kind: 'assistant', text: 'old answer' }, { kind: 'user', text: 'spell it' }], busy: true })
    const streamed = run([{ kind: 'progress', event: { type: 'text', text: 'papa' } }, { kind: 'progress', event: { type: 'turn-end', turn: 2, reason: 'cancelled' } }, { kind: 'busy', busy: false }], joined)
    const reread = chatReducer(streamed, { kind: 'history', items: [{ kind: 'user', text: 'old' }, { kind: 'assistant', text: 'old answer' }, { kind: 'user', text: 'spell it' }, { kind: 'assistant', text: 'alpha papa' }], busy: false })
    expect(reread.items).toEqual([
      { kind: 'user', text: 'old' },
      { kind: 'assistant', text: 'old answer' },
      { kind: 'user', text: 'spell it' },
      { kind: 'assistant', text: 'alpha papa' },
      { kind: 'notice', text: 'The turn was cancelled.' },
    ])
    expect(reread.busy).toBe(false)
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
