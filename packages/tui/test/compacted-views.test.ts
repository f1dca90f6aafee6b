// An automatic compaction in the middle of a turn, as each chat view shows it: one notice line
// where it happened, the transcript above kept, and the answer after it.
import { PassThrough } from 'node:stream'
import { Container } from '@mariozechner/pi-tui'
import { describe, expect, it } from 'vitest'
import type { AgentProgress } from '@dsh/runtime'
import { PlainView } from '../src/plain/plain-view.ts'
import { ScreenView } from '../src/screen/screen-view.ts'
import { createTheme } from '../src/theme.ts'

const events: AgentProgress[] = [
  { type: 'step-start', turn: 1, step: 1 },
  { type: 'text', text: 'Reading the logs.' },
  { type: 'compacted', summary: '<summary>the user asked about the logs</summary>' },
  { type: 'step-start', turn: 1, step: 2 },
  { type: 'text', text: 'Found it.' },
  { type: 'turn-end', turn: 1, reason: 'completed' },
]

describe('a compaction during a turn in the chat', () => {
  it('the full-screen transcript keeps what came before and marks where the history was compacted', () => {
    const transcript = new Container()
    const view = new ScreenView({ transcript, theme: createTheme({ color: false, attributes: false }), now: () => 0, cwd: () => '/', requestRender: () => undefined, statusChanged: () => undefined, queueChanged: () => undefined, restoreDraft: () => undefined, pickSession: () => Promise.resolve(undefined), choose: () => Promise.resolve(undefined) })
    view.promptStarted('why does it fail?')
    for (const event of events) view.progress(event)
    const screen = transcript.render(80).join('\n')
    const [before, after] = screen.split('(earlier history was compacted into a summary)')
    expect(before).toContain('Reading the logs.')
    expect(after).toContain('Found it.')
    expect(screen).not.toContain('the user asked about the logs')
  })

  it('the plain view prints the note on a line of its own between the answers', () => {
    const out = new PassThrough()
    let written = ''
    out.on('data', (chunk: Buffer) => (written += chunk.toString()))
    const view = new PlainView({ out, err: new PassThrough(), showReasoning: false, readLine: () => Promise.resolve(undefined) })
    for (const event of events) view.progress(event)
    expect(written).toBe('Reading the logs.\n(earlier history was compacted into a summary)\nFound it.\n')
  })
})
