// The chat's line about @ attachments: the files sent on one line, each refused one with the first
// sentence of why; and the same block when a resumed session replays the attachment message.
import { describe, expect, it } from 'vitest'
import type { Message } from '@dsh/contracts'
import { attachedLines } from '../src/attached-lines.ts'
import { replayBlocks } from '../src/screen/replay-blocks.ts'
import { createTheme } from '../src/theme.ts'

describe('attached lines', () => {
  it('names the files sent, then each one refused with its first sentence', () => {
    expect(attachedLines([{ path: 'src/app.ts' }, { path: 'docs/a.md' }, { path: '/home/me/.ssh/id', refused: 'The read call was denied: /home/me/.ssh/id is inside /home/me/.ssh. Do not try.' }])).toEqual([
      '  attached: src/app.ts, docs/a.md',
      '  not attached: @/home/me/.ssh/id (The read call was denied)',
    ])
    expect(attachedLines([])).toEqual([])
  })

  it('are replayed from the attachment message of a resumed session', () => {
    const messages: Message[] = [
      { id: 'u1', role: 'user', content: [{ type: 'text', text: 'explain @src/app.ts' }], source: { kind: 'user' } },
      { id: 'u2', role: 'user', content: [{ type: 'text', text: 'Files the user attached …' }], source: { kind: 'plugin', plugin: 'mentions', form: 'notice', data: { files: [{ path: 'src/app.ts' }] } } },
    ]
    const lines = replayBlocks(messages, createTheme({ color: false, attributes: false }), () => 0).flatMap((block) => block.render(80))
    expect(lines.map((line) => line.trimEnd())).toEqual(['', '› explain @src/app.ts', '  attached: src/app.ts', '', '── resumed here ──'])
  })
})
