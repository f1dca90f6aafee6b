// Streaming markdown renders what one markdown document renders, however the text is chunked.
import * as fc from 'fast-check'
import { Markdown } from '@mariozechner/pi-tui'
import { describe, expect, it } from 'vitest'
import { StreamingMarkdown } from '../src/screen/streaming-markdown.ts'
import { createTheme } from '../src/theme.ts'

const theme = createTheme({ color: false, attributes: false }).markdown

function trimmed(lines: string[]): string[] {
  const out = lines.map((line) => line.trimEnd())
  while (out.at(-1) === '') out.pop()
  return out
}

const blocks = ['# Title', 'A paragraph with **bold** and `code`.', '- one\n- two\n- three', '```ts\nconst a = 1\n\nconst b = 2\n```', '| a | b |\n|---|---|\n| 1 | 2 |', '> a quote', '1. first\n2. second']

describe('streaming markdown', () => {
  it('chunked streaming renders the same lines as the whole document, with frames (at two widths) between chunks', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...blocks), { minLength: 1, maxLength: 8 }), fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 30 }), (picked, sizes) => {
        const text = `${picked.join('\n\n')}\n`
        const streaming = new StreamingMarkdown(theme)
        let at = 0
        for (let i = 0; at < text.length; i++) {
          const size = sizes[i % sizes.length] ?? 10
          streaming.append(text.slice(at, at + size))
          at += size
          // The screen renders every answer each frame, and a resize changes the width.
          streaming.render(i % 3 === 0 ? 60 : 80)
        }
        expect(trimmed(streaming.render(80))).toEqual(trimmed(new Markdown(text, 0, 0, theme).render(80)))
      }),
      { numRuns: 60 },
    )
  })

  it('removes control characters from streamed text', () => {
    const streaming = new StreamingMarkdown(theme)
    streaming.append('safe \x1b[2J text\n')
    expect(streaming.render(40).map((line) => line.trimEnd())).toEqual(['safe [2J text'])
  })
})
