/**
 * Inline markdown of one line or paragraph: code, bold, italic, strike (`~~`), links with an http(s)
 * target and autolinks (`<https://…>` and bare `https://…`). Emphasis delimiters count only
 * outside words and hugging their text, as in CommonMark, so `user_service_impl.ts` and `2*3*4`
 * keep their characters. Elements are built from text; nothing is parsed as HTML.
 */
import type { ComponentChildren } from 'preact'

const inlinePattern =
  /(`[^`\n]+`)|(\*\*[^*\n]+\*\*)|((?<!\w)\*(?!\s)[^*\n]+(?<!\s)\*(?!\w)|(?<!\w)_(?!\s)[^_\n]+(?<!\s)_(?!\w))|(~~(?!\s)[^~\n]+(?<!\s)~~)|\[([^\]\n]+)\]\(([^)\s]+)\)|<(https?:\/\/[^>\s]+)>|(https?:\/\/[^\s<>()]*[^\s<>().,;:!?'"])/gi

const link = (key: number, href: string, label: ComponentChildren): ComponentChildren => (
  <a key={key} href={href} target="_blank" rel="noopener noreferrer">
    {label}
  </a>
)

/** Inline markup of `text`. */
export function inline(text: string): ComponentChildren[] {
  const out: ComponentChildren[] = []
  let last = 0
  let key = 0
  for (const match of text.matchAll(inlinePattern)) {
    const [whole, code, bold, italic, strike, label, href, angled, bare] = match
    if (match.index > last) out.push(text.slice(last, match.index))
    if (code !== undefined) out.push(<code key={key++}>{code.slice(1, -1)}</code>)
    else if (bold !== undefined) out.push(<strong key={key++}>{inline(bold.slice(2, -2))}</strong>)
    else if (italic !== undefined) out.push(<em key={key++}>{italic.slice(1, -1)}</em>)
    else if (strike !== undefined) out.push(<del key={key++}>{strike.slice(2, -2)}</del>)
    else if (label !== undefined && href !== undefined && /^https?:\/\//i.test(href)) out.push(link(key++, href, label))
    else if (angled !== undefined) out.push(link(key++, angled, angled))
    else if (bare !== undefined) out.push(link(key++, bare, bare))
    else out.push(whole)
    last = match.index + whole.length
  }
  if (last < text.length) out.push(text.slice(last))
  return out
}
