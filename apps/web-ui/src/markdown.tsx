/**
 * A small markdown renderer for the model's answers: fenced code (highlighted), headings, lists,
 * block quotes, paragraphs, and inline code, bold, italic and links. It builds Preact elements
 * from text, so model text is never parsed as HTML; only http(s) links become anchors.
 */
import type { ComponentChildren, JSX } from 'preact'
import { highlight } from './highlight.tsx'

/**
 * Inline markup. Emphasis delimiters count only outside words and hugging their text, as in
 * CommonMark, so `user_service_impl.ts` and `2*3*4` keep their characters.
 */
const inlinePattern = /(`[^`\n]+`)|(\*\*[^*\n]+\*\*)|((?<!\w)\*(?!\s)[^*\n]+(?<!\s)\*(?!\w)|(?<!\w)_(?!\s)[^_\n]+(?<!\s)_(?!\w))|\[([^\]\n]+)\]\(([^)\s]+)\)/g

/** Inline markup of one line or paragraph. */
export function inline(text: string): ComponentChildren[] {
  const out: ComponentChildren[] = []
  let last = 0
  let key = 0
  for (const match of text.matchAll(inlinePattern)) {
    const [whole, code, bold, italic, label, href] = match
    if (match.index > last) out.push(text.slice(last, match.index))
    if (code !== undefined) out.push(<code key={key++}>{code.slice(1, -1)}</code>)
    else if (bold !== undefined) out.push(<strong key={key++}>{bold.slice(2, -2)}</strong>)
    else if (italic !== undefined) out.push(<em key={key++}>{italic.slice(1, -1)}</em>)
    else if (label !== undefined && href !== undefined && /^https?:\/\//i.test(href))
      out.push(
        <a key={key++} href={href} target="_blank" rel="noopener noreferrer">
          {label}
        </a>,
      )
    else out.push(whole)
    last = match.index + whole.length
  }
  if (last < text.length) out.push(text.slice(last))
  return out
}

/** Markdown heading levels as page headings (the page's own headings use h1 and h2). */
const headingTags = ['h3', 'h4', 'h5', 'h6'] as const

function codeBlock(lines: readonly string[], language: string, key: number): JSX.Element {
  const code = lines.join('\n')
  return (
    <pre key={key} class="code" data-language={language || undefined}>
      <code>{highlight(code, language)}</code>
    </pre>
  )
}

/** The blocks of a markdown text. An unclosed fence (still streaming) is shown as code so far. */
export function Markdown(props: { readonly text: string }): JSX.Element {
  const lines = props.text.split('\n')
  const blocks: JSX.Element[] = []
  let paragraph: string[] = []
  let list: { ordered: boolean; items: string[] } | undefined
  let key = 0
  const flush = (): void => {
    if (paragraph.length > 0) blocks.push(<p key={key++}>{inline(paragraph.join('\n'))}</p>)
    paragraph = []
    if (list !== undefined) {
      const items = list.items.map((item, index) => <li key={index}>{inline(item)}</li>)
      blocks.push(list.ordered ? <ol key={key++}>{items}</ol> : <ul key={key++}>{items}</ul>)
    }
    list = undefined
  }
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? ''
    const fence = /^\s*```\s*([\w+-]*)/.exec(line)
    if (fence !== null) {
      flush()
      const body: string[] = []
      for (index++; index < lines.length && !/^\s*```\s*$/.test(lines[index] ?? ''); index++) body.push(lines[index] ?? '')
      blocks.push(codeBlock(body, fence[1] ?? '', key++))
      continue
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line)
    const bullet = /^\s*[-*+]\s+(.*)$/.exec(line)
    const numbered = /^\s*\d+[.)]\s+(.*)$/.exec(line)
    if (heading !== null) {
      flush()
      const Tag = headingTags[Math.min(headingTags.length, (heading[1] ?? '#').length) - 1] ?? 'h6'
      blocks.push(<Tag key={key++}>{inline(heading[2] ?? '')}</Tag>)
    } else if (bullet !== null || numbered !== null) {
      const ordered = numbered !== null
      if (paragraph.length > 0 || (list !== undefined && list.ordered !== ordered)) flush()
      list ??= { ordered, items: [] }
      list.items.push((bullet ?? numbered)?.[1] ?? '')
    } else if (line.startsWith('>')) {
      flush()
      blocks.push(<blockquote key={key++}>{inline(line.replace(/^>\s?/, ''))}</blockquote>)
    } else if (line.trim() === '') flush()
    else {
      if (list !== undefined) flush()
      paragraph.push(line)
    }
  }
  flush()
  return <div class="markdown">{blocks}</div>
}
