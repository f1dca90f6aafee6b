/**
 * The model's answers as markdown, rendered incrementally: the text is split into top-level blocks
 * (markdown-blocks.ts), each block is a memoised element, and while an answer streams only its
 * last (open) block is split and parsed again; the blocks before it keep their elements. Model
 * text is never parsed as HTML; only http(s) links become anchors.
 */
import type { JSX } from 'preact'
import { useRef } from 'preact/hooks'
import { Block } from './markdown-block.tsx'
import { splitBlocks, type BlockSplit } from './markdown-blocks.ts'

export { inline } from './markdown-inline.tsx'

/** The blocks of `text`; `streaming` says the text may still grow (its last block is open). */
export function Markdown(props: { readonly text: string; readonly streaming?: boolean }): JSX.Element {
  const split = useRef<BlockSplit | undefined>(undefined)
  if (split.current?.text !== props.text) split.current = splitBlocks(props.text, split.current)
  const { blocks } = split.current
  const open = props.streaming === true
  return (
    <div class="markdown">
      {blocks.map((source, index) => (
        <Block key={index} source={source} open={open && index === blocks.length - 1} />
      ))}
    </div>
  )
}
