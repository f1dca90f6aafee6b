// The incremental block split of a streamed answer: splitting a text piece by piece (reusing the
// previous split) gives the same blocks as splitting it whole, for any text and any cut points;
// blocks that ended keep their string objects; fences are blocks of their own.
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { splitBlocks, type BlockSplit } from '../src/markdown-blocks.ts'

describe('markdown blocks', () => {
  it('splits at blank lines outside fences; a fence is one block even with blank lines inside', () => {
    expect(splitBlocks('# Title\ntext\n\n- a\n- b\n\n```js\nx\n\ny\n```\nafter').blocks).toEqual(['# Title\ntext', '- a\n- b', '```js\nx\n\ny\n```', 'after'])
  })

  it('piece by piece equals whole, and ended blocks keep their objects', () => {
    const line = fc.constantFrom('', 'text', '- item', '  - nested', '```', '```ts', '| a | b |', '|---|---|', '# h', '> q', 'x ~~y~~')
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 20 }), (lines, cuts) => {
        const text = lines.join('\n')
        let split: BlockSplit | undefined
        let at = 0
        for (const cut of [...cuts, text.length]) {
          at = Math.min(text.length, at + cut)
          const next = splitBlocks(text.slice(0, at), split)
          if (split !== undefined) for (let index = 0; index < split.blocks.length - 1; index++) expect(next.blocks[index]).toBe(split.blocks[index])
          split = next
        }
        expect(split?.blocks).toEqual(splitBlocks(text).blocks)
      }),
      { numRuns: 400 },
    )
  })
})
