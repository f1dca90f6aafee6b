/**
 * One top-level markdown block as elements (see markdown-blocks.ts for the split): a fenced code
 * block, a GFM table, or lines of headings, lists (nested), block quotes, rules and paragraphs.
 */
import type { JSX } from 'preact'
import { memo } from './memo.ts'
import { CodeBlock } from './code-block.tsx'
import { inline } from './markdown-inline.tsx'
import { itemLine, ListView, parseLists } from './markdown-list.tsx'

/** Markdown heading levels as page headings (the page's own headings use h1 and h2). */
const headingTags = ['h3', 'h4', 'h5', 'h6'] as const

const delimiterRow = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/

const cells = (line: string): string[] =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'))

function Table(props: { readonly lines: readonly string[] }): JSX.Element {
  const [head = '', delimiter = '', ...rows] = props.lines
  const align = cells(delimiter).map((cell) => (cell.startsWith(':') && cell.endsWith(':') ? 'center' : cell.endsWith(':') ? 'right' : cell.startsWith(':') ? 'left' : undefined))
  const row = (line: string, Cell: 'th' | 'td'): JSX.Element[] => cells(line).map((cell, index) => <Cell key={index} style={align[index] === undefined ? undefined : { textAlign: align[index] }}>{inline(cell)}</Cell>)
  return (
    <div class="table-wrap">
      <table>
        <thead>
          <tr>{row(head, 'th')}</tr>
        </thead>
        <tbody>
          {rows.map((line, index) => (
            <tr key={index}>{row(line, 'td')}</tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function lineBlocks(lines: readonly string[]): JSX.Element[] {
  const out: JSX.Element[] = []
  let paragraph: string[] = []
  let list: string[] = []
  let quote: string[] = []
  const flush = (): void => {
    if (paragraph.length > 0) out.push(<p key={out.length}>{inline(paragraph.join('\n'))}</p>)
    for (const parsed of list.length > 0 ? parseLists(list) : []) out.push(<ListView key={out.length} list={parsed} />)
    if (quote.length > 0) out.push(<blockquote key={out.length}>{inline(quote.join('\n'))}</blockquote>)
    paragraph = []
    list = []
    quote = []
  }
  for (const line of lines) {
    const heading = /^(#{1,6})\s+(.*)$/.exec(line)
    if (heading !== null) {
      flush()
      const Tag = headingTags[Math.min(headingTags.length, (heading[1] ?? '#').length) - 1] ?? 'h6'
      out.push(<Tag key={out.length}>{inline(heading[2] ?? '')}</Tag>)
    } else if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
      flush()
      out.push(<hr key={out.length} />)
    } else if (itemLine.test(line) || (list.length > 0 && /^\s+\S/.test(line))) {
      if (paragraph.length > 0 || quote.length > 0) flush()
      list.push(line)
    } else if (line.startsWith('>')) {
      if (paragraph.length > 0 || list.length > 0) flush()
      quote.push(line.replace(/^>\s?/, ''))
    } else {
      if (list.length > 0 || quote.length > 0) flush()
      paragraph.push(line)
    }
  }
  flush()
  return out
}

/** A block's elements; `open` says the block may still grow (an open fence is not highlighted yet). */
function BlockView(props: { readonly source: string; readonly open: boolean }): JSX.Element {
  const lines = props.source.split('\n')
  const fence = /^\s{0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/.exec(lines[0] ?? '')
  if (fence !== null) {
    const marker = fence[1] ?? '```'
    const closed = lines.length > 1 && lines.at(-1)?.trim().startsWith(marker) === true
    const body = lines.slice(1, closed ? -1 : undefined).join('\n')
    return <CodeBlock code={body} language={fence[2] ?? ''} closed={closed || !props.open} />
  }
  if (lines.length >= 2 && (lines[0] ?? '').includes('|') && delimiterRow.test(lines[1] ?? '')) return <Table lines={lines} />
  return <>{lineBlocks(lines)}</>
}

/** {@link BlockView}, re-rendered only when its source or openness changes. */
export const Block = memo(BlockView)
