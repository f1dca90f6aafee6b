/**
 * A server's error body as one bounded line: a JSON message stays as it is, an HTML page (a
 * proxy's 503) is summarised by its `<title>` or first heading, else its first line of text, so a
 * whole page is never echoed (issue 22 F16).
 */
import { oneLine } from './errors.ts'

/** Longest summary of a non-JSON body. */
const MAX_SUMMARY_CHARS = 160

/** The body as one line; HTML reduced to its title (or first text line), bounded. */
export function summarizeBody(text: string): string {
  if (!/<(!doctype\s+html|html|head|body|title|h1)\b/i.test(text)) return oneLine(text)
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1] ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(text)?.[1]
  const plain = (title ?? firstTextLine(text)).replace(/<[^>]*>/g, ' ')
  const flat = decodeEntities(plain).replace(/\s+/g, ' ').trim()
  const bounded = flat.length <= MAX_SUMMARY_CHARS ? flat : `${flat.slice(0, MAX_SUMMARY_CHARS - 1)}…`
  return bounded === '' ? 'an HTML page without a title' : `an HTML page: ${bounded}`
}

function firstTextLine(html: string): string {
  const text = html.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, '\n')
  return text.split('\n').find((line) => line.trim() !== '') ?? ''
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (entity: string, name: string) => ENTITIES[name] ?? entity)
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' }
