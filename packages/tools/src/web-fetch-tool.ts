/**
 * `web_fetch`: a public web page as Markdown, a window of it per call. Downloads go through
 * web-request.ts (public addresses only, unless the composition allows private ones; a deadline;
 * a 10 MB cap; through the environment's proxy when it names one), conversion through html-markdown.ts. Converted pages are kept 15 minutes (at most
 * 20), so paging with `start_char` does not download again. Failures are error results that say
 * what to do instead; nothing is written anywhere.
 */
import { z } from 'zod'
import type { ToolDefinition } from '@dsh/contracts'
import type { ProxySettings } from '@dsh/runtime'
import { pageText } from './html-markdown.ts'
import { webGet } from './web-request.ts'
import { credentialsInUrl, failed, httpError, notAUrl, notText, otherHost, pageHeading, refusedAddress, startPastEnd, timedOut, truncatedNote, WEB_DEFAULT_CHARS, WEB_FETCH_DESCRIPTION, WEB_MAX_CHARS, windowNote } from './web-fetch-text.ts'

/** Largest body downloaded (decoded), in bytes. */
export const WEB_MAX_BYTES = 10 * 1024 * 1024
/** How long a converted page is kept, in ms. */
const KEPT_MS = 15 * 60 * 1000
/** Pages kept at once. */
const KEPT_PAGES = 20
/** Characters of an error page's body shown. */
const ERROR_BODY_CHARS = 2000

const parameters = z.strictObject({
  url: z.string().min(1).max(8192).describe('Absolute http or https URL of the page.'),
  start_char: z.number().int().min(1).optional().describe('First character of the page text to return (1-based), for the next window of a long page. Default: 1.'),
  max_chars: z.number().int().min(1).max(WEB_MAX_CHARS).optional().describe(`Most characters to return. Default: ${WEB_DEFAULT_CHARS}.`),
})

/** Arguments of `web_fetch`. */
export type WebFetchArgs = z.infer<typeof parameters>

/** Options of {@link createWebFetchTool}. */
export interface WebFetchOptions {
  /** Connect to loopback and private addresses too (tests on loopback; never the default). */
  readonly allowPrivateNetwork?: boolean
  /** Deadline of one download, in ms (default 30,000). */
  readonly timeoutMs?: number
  /** `User-Agent` header. */
  readonly userAgent?: string
  /** Clock (tests). */
  readonly now?: () => number
  /** The environment's proxy variables (`proxySettings` of `@dsh/runtime`); undefined: downloads go direct. */
  readonly proxy?: ProxySettings | undefined
}

interface Kept {
  readonly at: number
  readonly status: number
  readonly contentType: string
  readonly title?: string | undefined
  readonly text: string
  readonly truncated: boolean
}

function parseUrl(raw: string): URL | string {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    // Not an absolute URL: the model is told what the tool takes.
    return notAUrl(raw)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return notAUrl(raw)
  if (url.username !== '' || url.password !== '') return credentialsInUrl()
  url.hash = ''
  return url
}

/** The tool. */
export function createWebFetchTool(options: WebFetchOptions = {}): ToolDefinition<WebFetchArgs> {
  const kept = new Map<string, Kept>()
  const now = options.now ?? Date.now
  const timeoutMs = options.timeoutMs ?? 30_000
  const remember = (url: string, page: Kept): void => {
    kept.delete(url)
    kept.set(url, page)
    for (const [key, value] of kept) if (kept.size > KEPT_PAGES || now() - value.at >= KEPT_MS) kept.delete(key)
  }
  return {
    name: 'web_fetch',
    description: WEB_FETCH_DESCRIPTION,
    parameters,
    async execute(args, run) {
      const url = parseUrl(args.url)
      if (typeof url === 'string') return { isError: true, content: url }
      let page = kept.get(url.href)
      if (page === undefined || now() - page.at >= KEPT_MS) {
        const answer = await webGet(url, { timeoutMs, maxBytes: WEB_MAX_BYTES, allowPrivate: options.allowPrivateNetwork === true, signal: run.signal, userAgent: options.userAgent ?? 'dsh (web_fetch)', proxy: options.proxy })
        switch (answer.kind) {
          case 'refused':
            return { isError: true, content: refusedAddress(answer.host, answer.address, answer.addressKind) }
          case 'redirect':
            return { content: otherHost(answer.from, answer.to, answer.status), meta: { url: url.href, redirect: answer.to } }
          case 'timed-out':
            return { isError: true, content: timedOut(url.href, timeoutMs) }
          case 'failed':
            if (run.signal.aborted) throw run.signal.reason
            return { isError: true, content: failed(url.href, answer.reason) }
          case 'response': {
            const text = await pageText(answer.body, answer.contentType, answer.url)
            if (text.kind === 'not-text') return { isError: true, content: notText(answer.url, answer.contentType, answer.body.length) }
            if (answer.status < 200 || answer.status >= 300) return { isError: true, content: httpError(answer.url, answer.status, text.text.slice(0, ERROR_BODY_CHARS)) }
            page = { at: now(), status: answer.status, contentType: answer.contentType, title: 'title' in text ? text.title : undefined, text: text.text, truncated: answer.truncated }
            remember(url.href, page)
            break
          }
          default: {
            const unknown: never = answer
            return unknown
          }
        }
      }
      const start = args.start_char ?? 1
      const length = page.text.length
      if (length > 0 && start > length) return { isError: true, content: startPastEnd(start, length) }
      const end = Math.min(length, start - 1 + (args.max_chars ?? WEB_DEFAULT_CHARS))
      const heading = pageHeading({ url: url.href, status: page.status, contentType: page.contentType, title: page.title })
      const notes = [...(start > 1 || end < length ? [windowNote(start, end, length)] : []), ...(page.truncated ? [truncatedNote(WEB_MAX_BYTES / (1024 * 1024))] : [])]
      return { content: [...heading, ...notes, '', page.text.slice(start - 1, end)].join('\n'), meta: { url: url.href, status: page.status, chars: length } }
    },
  }
}
