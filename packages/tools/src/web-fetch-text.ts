/**
 * Every text `web_fetch` shows the model: its description, the heading of a page, the paging
 * note, and the refusals with what to do instead.
 */
import type { AddressKind } from './web-address.ts'

/** Characters of one page of a result when `max_chars` is not given. */
export const WEB_DEFAULT_CHARS = 50_000
/** Most characters one call may ask for. */
export const WEB_MAX_CHARS = 200_000

/** The tool's description. */
export const WEB_FETCH_DESCRIPTION =
  'Fetches a public http or https URL and returns the page as Markdown (HTML converted; plain text, Markdown and JSON as they are), ' +
  `at most ${WEB_DEFAULT_CHARS} characters per call unless max_chars says otherwise (page on with start_char). ` +
  'Use it to read documentation, a changelog or an issue the task needs. Redirects on the same host are followed; ' +
  'one to another host is reported, not followed. Local and private addresses are refused. Pages are kept for 15 minutes, so paging does not download again.'

/** The first lines of a result. */
export function pageHeading(page: { readonly url: string; readonly status: number; readonly contentType: string; readonly title?: string | undefined }): string[] {
  return [`URL: ${page.url}`, `Status: ${page.status} (${page.contentType === '' ? 'no content type' : page.contentType})`, ...(page.title === undefined || page.title === '' ? [] : [`Title: ${page.title}`])]
}

/** The note of a page cut to a window of the text. */
export function windowNote(from: number, to: number, length: number): string {
  return to < length ? `[Characters ${from}-${to} of ${length}. Call web_fetch with the same url and start_char=${to + 1} for more.]` : `[Characters ${from}-${to} of ${length}.]`
}

export const notAUrl = (url: string): string => `web_fetch takes an absolute http or https URL; ${JSON.stringify(url)} is not one.`

export const credentialsInUrl = (): string => 'web_fetch does not send a user name or password written into the URL. Fetch the page without them.'

export const refusedAddress = (host: string, address: string, kind: AddressKind): string =>
  `${host} resolves to ${address}, a ${kind} address: web_fetch reaches public addresses only. For a server on this machine or network, use bash (curl) instead.`

export const otherHost = (from: string, to: string, status: number): string => `${from} redirected (${status}) to ${to}, on another host. It was not followed: call web_fetch with that URL if you want it.`

export const timedOut = (url: string, ms: number): string => `web_fetch of ${url} timed out after ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`}. Try again later, or a smaller page.`

export const failed = (url: string, reason: string): string => `web_fetch of ${url} failed: ${reason}. Check the URL; do not retry it unchanged.`

export const httpError = (url: string, status: number, body: string): string => `${url} answered HTTP ${status}.${body === '' ? '' : ` The start of its page:\n\n${body}`}`

export const notText = (url: string, contentType: string, bytes: number): string =>
  `${url} is ${contentType} (${bytes} bytes), which web_fetch does not convert to text. If you need the file, download it with bash (curl -o FILE URL).`

export const startPastEnd = (start: number, length: number): string => `start_char ${start} is past the end of the page, which has ${length} characters. Use a start_char from 1 to ${length}.`

export const truncatedNote = (megabytes: number): string => `[The page was larger than ${megabytes} MB: only its first ${megabytes} MB were converted.]`
