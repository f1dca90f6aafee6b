/**
 * A downloaded page as the text `web_fetch` returns: HTML converted to Markdown by
 * `node-html-markdown` (scripts and styles dropped), its relative links made absolute against the
 * page's URL so the model can fetch them, and its `<title>`; Markdown, plain text, JSON, XML and
 * other `text/*` bodies as they are. The body is decoded with the charset its content type names
 * (UTF-8 when it names none or one this runtime does not know). The converter is imported at the
 * first HTML page, so a process that fetches nothing never loads it.
 */

/** What a body becomes. */
export type PageText = { readonly kind: 'text'; readonly text: string; readonly title?: string } | { readonly kind: 'not-text' }

const TEXT_TYPES = /^(?:text\/|application\/(?:json|xml|xhtml\+xml|javascript|x-javascript|ld\+json|[\w.+-]+\+json|[\w.+-]+\+xml)\b)/

function decode(body: Buffer, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1]
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body)
  } catch {
    // A charset this runtime does not know: read it as UTF-8 (invalid bytes become U+FFFD).
    return new TextDecoder('utf-8').decode(body)
  }
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16))
    if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10))
    return ENTITIES[name.toLowerCase()] ?? whole
  })
}

/** The page's `<title>`, one line. */
function titleOf(html: string): string | undefined {
  const raw = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1]
  return raw === undefined ? undefined : decodeEntities(raw).replace(/\s+/g, ' ').trim().slice(0, 300)
}

/** `](relative)` links made absolute against `base`. */
function absoluteLinks(markdown: string, base: string): string {
  return markdown.replace(/\]\(([^)\s]+)((?:\s+"[^"]*")?)\)/g, (whole, target: string, title: string) => {
    if (/^(?:[a-z][a-z0-9+.-]*:|#)/i.test(target)) return whole
    try {
      return `](${new URL(target, base).href}${title})`
    } catch {
      // Not resolvable against the page: left as the page wrote it.
      return whole
    }
  })
}

/** The converter; a CommonJS package, so a bundle's dynamic import may hold it under `default`. */
async function converter(): Promise<typeof import('node-html-markdown').NodeHtmlMarkdown> {
  const loaded = await import('node-html-markdown')
  const direct: unknown = Reflect.get(loaded, 'NodeHtmlMarkdown')
  if (direct !== undefined) return loaded.NodeHtmlMarkdown
  const wrapped: unknown = Reflect.get(loaded, 'default')
  const inner: unknown = typeof wrapped === 'object' && wrapped !== null ? Reflect.get(wrapped, 'NodeHtmlMarkdown') : undefined
  if (typeof inner !== 'function') throw new Error('node-html-markdown has no NodeHtmlMarkdown export')
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- the class the package exports, found under the interop wrapper
  return inner as typeof import('node-html-markdown').NodeHtmlMarkdown
}

/** The text of `body` served as `contentType` from `url`. */
export async function pageText(body: Buffer, contentType: string, url: string): Promise<PageText> {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? ''
  const text = decode(body, contentType)
  const looksHtml = type === 'text/html' || type === 'application/xhtml+xml' || (type === '' && /^\s*<(?:!doctype html|html)/i.test(text))
  if (looksHtml) {
    const title = titleOf(text)
    const markdown = absoluteLinks((await converter()).translate(text), url).trim()
    return title === undefined ? { kind: 'text', text: markdown } : { kind: 'text', text: markdown, title }
  }
  if (type === '' ? !text.includes('\u0000') : TEXT_TYPES.test(type)) return { kind: 'text', text }
  return { kind: 'not-text' }
}
