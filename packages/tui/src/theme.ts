/**
 * The chat's look: text styles as functions (SGR colour and attribute codes, never layout), and
 * the themes pi-tui's editor, select lists and markdown take. With colour off (`NO_COLOR`, plain
 * mode) every colour function returns its text unchanged; attributes (bold, dim, italic, inverse)
 * stay in the full-screen mode because they are not colour. Fenced code is highlighted only with
 * colour on.
 */
import type { EditorTheme, MarkdownTheme, SelectListTheme } from '@mariozechner/pi-tui'
import { common, createEmphasize } from 'emphasize'

/** One style. */
export type Style = (text: string) => string

/** The styles of the chat. */
export interface Theme {
  /** True when colour codes are emitted. */
  readonly color: boolean
  readonly bold: Style
  readonly dim: Style
  readonly italic: Style
  readonly inverse: Style
  readonly red: Style
  readonly green: Style
  readonly yellow: Style
  readonly cyan: Style
  readonly magenta: Style
  readonly gray: Style
  readonly markdown: MarkdownTheme
  readonly editor: EditorTheme
  readonly select: SelectListTheme
}

const sgr =
  (enabled: boolean, open: string, close: string): Style =>
  (text) =>
    enabled && text !== '' ? `\x1b[${open}m${text}\x1b[${close}m` : text

const emphasize = createEmphasize(common)

/** Highlighted lines kept for reuse; streaming re-renders the open code block on every chunk. */
const highlightCacheLimit = 4000

/**
 * Highlights fenced code line by line, reusing earlier results: a streaming answer re-renders its
 * open code block on every chunk, and only the new lines cost anything. (Per-line highlighting
 * does not carry state across lines, so a multi-line comment or string is coloured line by line.)
 */
function highlighter(color: boolean): ((code: string, lang?: string) => string[]) | undefined {
  if (!color) return undefined
  const cache = new Map<string, string>()
  return (code, lang) => {
    if (lang === undefined || lang === '' || !emphasize.registered(lang)) return code.split('\n')
    return code.split('\n').map((line) => {
      const key = `${lang}\u0000${line}`
      const known = cache.get(key)
      if (known !== undefined) return known
      const highlighted = emphasize.highlight(lang, line).value
      if (cache.size >= highlightCacheLimit) cache.clear()
      cache.set(key, highlighted)
      return highlighted
    })
  }
}

/** Creates the theme. `attributes` allows bold/dim/italic/inverse; `color` allows colours. */
export function createTheme(options: { readonly color: boolean; readonly attributes: boolean }): Theme {
  const { color, attributes } = options
  const bold = sgr(attributes, '1', '22')
  const dim = sgr(attributes, '2', '22')
  const italic = sgr(attributes, '3', '23')
  const inverse = sgr(attributes, '7', '27')
  const underline = sgr(attributes, '4', '24')
  const red = sgr(color, '31', '39')
  const green = sgr(color, '32', '39')
  const yellow = sgr(color, '33', '39')
  const blue = sgr(color, '34', '39')
  const magenta = sgr(color, '35', '39')
  const cyan = sgr(color, '36', '39')
  const gray = sgr(color, '90', '39')
  const highlight = highlighter(color)
  const select: SelectListTheme = {
    selectedPrefix: (text) => cyan(text),
    selectedText: (text) => bold(cyan(text)),
    description: (text) => dim(text),
    scrollInfo: (text) => dim(text),
    noMatch: (text) => dim(text),
  }
  const markdown: MarkdownTheme = {
    heading: (text) => bold(cyan(text)),
    link: (text) => underline(blue(text)),
    linkUrl: (text) => dim(text),
    code: (text) => yellow(text),
    codeBlock: (text) => text,
    codeBlockBorder: (text) => gray(text),
    quote: (text) => italic(text),
    quoteBorder: (text) => gray(text),
    hr: (text) => gray(text),
    listBullet: (text) => cyan(text),
    bold,
    italic,
    strikethrough: sgr(attributes, '9', '29'),
    underline,
    ...(highlight === undefined ? {} : { highlightCode: highlight }),
  }
  return { color, bold, dim, italic, inverse, red, green, yellow, cyan, magenta, gray, markdown, editor: { borderColor: gray, selectList: select }, select }
}
