// A session's visible history as the page shows it: typed prompts and answers, tool calls with
// their results attached, the files a prompt @-mentioned, where a compaction summarised the
// history; other plugin context stays out.
import { describe, expect, it } from 'vitest'
import type { Message } from '@dsh/contracts'
import { historyItems } from '../src/history-items.ts'

const text = (value: string) => [{ type: 'text' as const, text: value }]

describe('historyItems', () => {
  it('keeps what people typed, the answers and each tool call with its result, in order', () => {
    const messages: Message[] = [
      { id: '1', role: 'user', content: text('<instructions>'), source: { kind: 'plugin', plugin: 'x', form: 'notice' } },
      { id: '2', role: 'user', content: text('list files'), source: { kind: 'user' } },
      { id: '3', role: 'assistant', content: [...text('Looking.'), { type: 'tool-call', callId: 'c1', name: 'bash', arguments: '{"command":"ls"}' }], source: { kind: 'model' } },
      { id: '4', role: 'tool', callId: 'c1', toolName: 'bash', isError: false, content: text('a.txt'), source: { kind: 'tool' } },
      { id: '5', role: 'assistant', content: text('One file: a.txt.'), source: { kind: 'model' } },
    ]
    expect(historyItems(messages)).toEqual([
      { kind: 'user', text: 'list files' },
      { kind: 'assistant', text: 'Looking.' },
      { kind: 'tool', callId: 'c1', name: 'bash', arguments: '{"command":"ls"}', result: 'a.txt', isError: false },
      { kind: 'assistant', text: 'One file: a.txt.' },
    ])
  })

  it('names the @-mentioned files that went with a prompt, after it', () => {
    const messages: Message[] = [
      { id: '1', role: 'user', content: text('explain @a.ts and @b.key'), source: { kind: 'user' } },
      { id: '2', role: 'user', content: text('Files the user attached …'), source: { kind: 'plugin', plugin: 'mentions', form: 'notice', data: { files: [{ path: 'a.ts' }, { path: 'b.key', refused: 'denied' }] } } },
    ]
    expect(historyItems(messages)).toEqual([
      { kind: 'user', text: 'explain @a.ts and @b.key' },
      { kind: 'attached', files: [{ path: 'a.ts' }, { path: 'b.key', refused: 'denied' }] },
    ])
  })

  it('keeps the reasoning recorded with an answer, before it', () => {
    const messages: Message[] = [{ id: '1', role: 'assistant', content: [{ type: 'reasoning', text: 'think ' }, { type: 'reasoning', text: 'more' }, ...text('Done.')], source: { kind: 'model' } }]
    expect(historyItems(messages)).toEqual([
      { kind: 'reasoning', text: 'think more' },
      { kind: 'assistant', text: 'Done.' },
    ])
  })

  it('marks where a compaction summarised the history, with the summary the model has instead', () => {
    const messages: Message[] = [
      { id: '1', role: 'user', content: text('Summary: the parser is being fixed.'), source: { kind: 'compaction', checkpointId: 'k1', summarizer: 'model' } },
      { id: '2', role: 'user', content: text('go on'), source: { kind: 'user' } },
    ]
    expect(historyItems(messages)).toEqual([
      { kind: 'compacted', summary: 'Summary: the parser is being fixed.' },
      { kind: 'user', text: 'go on' },
    ])
  })
})
