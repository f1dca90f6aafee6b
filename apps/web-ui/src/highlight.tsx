/**
 * A small code highlighter: splits code into comments, strings, numbers, keywords and the rest,
 * and returns spans (text nodes only, never HTML), good enough for the languages a coding agent
 * shows (JS/TS, Python, shell, JSON, Go, Rust, C-like).
 */
import type { JSX } from 'preact'

const keywords = new Set(
  'as async await break case catch class const continue def default do elif else enum export extends false fi finally fn for from func function if impl import in interface let match mod new nil none null of package pub return self static struct super switch then this throw true try type undefined use var void while with yield'.split(' '),
)

const token = /(\/\/[^\n]*|#[^\n]*|\/\*[\s\S]*?\*\/)|("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)|(\b\d[\d_.]*(?:e[+-]?\d+)?\b)|([A-Za-z_$][\w$]*)/g

/** Highlighted spans of `code`; `language` decides whether `#` starts a comment. */
export function highlight(code: string, language: string): JSX.Element[] {
  const hashComments = /^(sh|bash|shell|zsh|py|python|rb|ruby|yaml|yml|toml|make|dockerfile)$/i.test(language)
  const out: JSX.Element[] = []
  let last = 0
  let key = 0
  for (const match of code.matchAll(token)) {
    const [text, comment, string, number, word] = match
    const start = match.index
    if (comment?.startsWith('#') === true && !hashComments) continue
    if (word !== undefined && !keywords.has(word)) continue
    if (start > last) out.push(<span key={key++}>{code.slice(last, start)}</span>)
    const kind = comment !== undefined ? 'hl-comment' : string !== undefined ? 'hl-string' : number !== undefined ? 'hl-number' : 'hl-keyword'
    out.push(
      <span key={key++} class={kind}>
        {text}
      </span>,
    )
    last = start + text.length
  }
  if (last < code.length) out.push(<span key={key++}>{code.slice(last)}</span>)
  return out
}
