// A model call retried after output started, as each chat view shows it: the full-screen view
// takes the void partial answer and its reasoning off the transcript (the retry line itself comes
// through the diagnostics relay), so the answer is on screen once; the plain view, which cannot
// take printed text back, says in one line that what came before is discarded.
import { PassThrough } from 'node:stream'
import { Container } from '@mariozechner/pi-tui'
import { describe, expect, it } from 'vitest'
import type { AgentProgress } from '@dsh/runtime'
import { PlainView } from '../src/plain/plain-view.ts'
import { ScreenView } from '../src/screen/screen-view.ts'
import { createTheme } from '../src/theme.ts'

const attempt: AgentProgress[] = [
  { type: 'reasoning', text: 'Thinking about it' },
  { type: 'text', text: 'The partial ans' },
]
const retry: AgentProgress = { type: 'retry', attempt: 2, maxAttempts: 5, detail: 'the stream stalled: no data for 300 ms (model.idleTimeoutMs)', discarded: true }
const whole: AgentProgress[] = [
  { type: 'reasoning', text: 'Thinking about it again' },
  { type: 'text', text: 'The whole answer.' },
  { type: 'turn-end', turn: 1, reason: 'completed' },
]

describe('a discarding retry in the chat', () => {
  it('the full-screen transcript keeps the prompt and one whole answer, nothing of the failed attempt', () => {
    const transcript = new Container()
    const view = new ScreenView({ transcript, theme: createTheme({ color: false, attributes: false }), now: () => 0, cwd: () => '/', requestRender: () => undefined, statusChanged: () => undefined, queueChanged: () => undefined, restoreDraft: () => undefined, pickSession: () => Promise.resolve(undefined), choose: () => Promise.resolve(undefined) })
    view.promptStarted('hi')
    for (const event of [{ type: 'step-start', turn: 1, step: 1 } as const, ...attempt, retry, ...whole]) view.progress(event)
    view.toggleReasoning()
    const screen = transcript.render(80).join('\n')
    expect(screen).toContain('The whole answer.')
    expect(screen).not.toContain('The partial ans')
    expect(screen).toContain('Thinking about it again')
    expect(screen.split('Thinking about it').length).toBe(2)
  })

  it('the plain view says the partial answer above is discarded, then prints the answer', () => {
    const out = new PassThrough()
    let written = ''
    out.on('data', (chunk: Buffer) => (written += chunk.toString()))
    const view = new PlainView({ out, err: new PassThrough(), showReasoning: false, readLine: () => Promise.resolve(undefined) })
    for (const event of [{ type: 'step-start', turn: 1, step: 1 } as const, ...attempt, retry, ...whole]) view.progress(event)
    expect(written).toBe('The partial ans\n[the answer broke off (the stream stalled: no data for 300 ms (model.idleTimeoutMs)); retrying, attempt 2 of 5: the partial answer above is discarded]\nThe whole answer.\n')
  })

  it('the plain view on a pipe holds each attempt: the void one is dropped unseen, the whole answer printed once', () => {
    const out = new PassThrough()
    let written = ''
    out.on('data', (chunk: Buffer) => (written += chunk.toString()))
    const view = new PlainView({ out, err: new PassThrough(), showReasoning: true, holdAttempts: true, readLine: () => Promise.resolve(undefined) })
    for (const event of [{ type: 'step-start', turn: 1, step: 1 } as const, ...attempt]) view.progress(event)
    expect(written).toBe('')
    view.progress(retry)
    for (const event of whole) view.progress(event)
    expect(written).toBe('[the answer broke off (the stream stalled: no data for 300 ms (model.idleTimeoutMs)); retrying, attempt 2 of 5]\nthinking: Thinking about it again\nThe whole answer.\n')
  })

  it('the plain view on a pipe writes a step\'s text before its tool call and before the next step', () => {
    const out = new PassThrough()
    let written = ''
    out.on('data', (chunk: Buffer) => (written += chunk.toString()))
    const view = new PlainView({ out, err: new PassThrough(), showReasoning: false, holdAttempts: true, readLine: () => Promise.resolve(undefined) })
    view.progress({ type: 'step-start', turn: 1, step: 1 })
    view.progress({ type: 'text', text: 'Let me look.' })
    expect(written).toBe('')
    view.progress({ type: 'tool-start', callId: 'c1', name: 'read', arguments: '{"path":"a.txt"}' })
    expect(written.startsWith('Let me look.\n→ read')).toBe(true)
    view.progress({ type: 'step-start', turn: 1, step: 2 })
    view.progress({ type: 'text', text: 'Done.' })
    view.progress({ type: 'step-start', turn: 1, step: 3 })
    expect(written.endsWith('Done.')).toBe(true)
  })
})
