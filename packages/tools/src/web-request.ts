/**
 * One `web_fetch` download: GET with a deadline and a size cap, on `node:http(s)` with a lookup
 * that connects only to the addresses it checked (web-address.ts: every address a name resolves
 * to must be public, unless private ones are allowed; an IP literal, which Node connects to
 * without a lookup, is checked before the request), so a name cannot resolve to a public
 * address for the check and a private one for the connection. Redirects on the same host are
 * followed (at most five); one to another host is returned, not followed. gzip, deflate and brotli
 * bodies are decoded; the body stops at `maxBytes` (decoded) with `truncated` set. Where the
 * environment names a proxy for the URL, the download goes through it (web-proxy.ts).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'
import { proxyDisplay, proxyUrlFor, type ProxySettings } from '@dsh/runtime'
import { addressKind, type AddressKind } from './web-address.ts'
import { ProxyFailure, proxiedRequest, refusedResolution } from './web-proxy.ts'

/** What one download gave. */
export type WebResponse =
  | { readonly kind: 'response'; readonly url: string; readonly status: number; readonly contentType: string; readonly body: Buffer; readonly truncated: boolean }
  | { readonly kind: 'redirect'; readonly from: string; readonly to: string; readonly status: number }
  | { readonly kind: 'refused'; readonly host: string; readonly address: string; readonly addressKind: AddressKind }
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'timed-out' }

/** How to download. */
export interface WebRequestOptions {
  readonly timeoutMs: number
  readonly maxBytes: number
  readonly allowPrivate: boolean
  readonly signal: AbortSignal
  readonly userAgent: string
  /** The environment's proxy variables (web-proxy.ts); undefined: every download goes direct. */
  readonly proxy?: ProxySettings | undefined
}

/** Redirects followed on one host. */
const MAX_REDIRECTS = 5

class RefusedAddress extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly kind: AddressKind,
  ) {
    super(`${host} resolves to ${address}, a ${kind} address`)
  }
}

/** A lookup that refuses any name with an address that is not public (unless allowed). */
function checkedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error !== null) return callback(error, '', 0)
      const refused = allowPrivate ? undefined : addresses.find((entry) => addressKind(entry.address) !== undefined)
      if (refused !== undefined) return callback(new RefusedAddress(hostname, refused.address, addressKind(refused.address) ?? 'reserved'), '', 0)
      const [first] = addresses
      if (first === undefined) return callback(new Error(`${hostname} has no address`), '', 0)
      if (options.all === true) return callback(null, addresses)
      return callback(null, first.address, first.family)
    })
  }
}

function decoded(response: IncomingMessage): NodeJS.ReadableStream {
  const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase()
  if (encoding === 'gzip' || encoding === 'x-gzip') return response.pipe(createGunzip())
  if (encoding === 'deflate') return response.pipe(createInflate())
  if (encoding === 'br') return response.pipe(createBrotliDecompress())
  return response
}

/** One GET of `url`, no redirect followed: direct, or through the environment's proxy when it names one for `url`. */
async function getOnce(url: URL, options: WebRequestOptions, signal: AbortSignal): Promise<WebResponse> {
  // An IP literal is connected to without a lookup: it is checked here.
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1')
  const literalKind = isIP(literal) === 0 || options.allowPrivate ? undefined : addressKind(literal)
  if (literalKind !== undefined) return { kind: 'refused', host: literal, address: literal, addressKind: literalKind }
  const headers = { 'user-agent': options.userAgent, accept: 'text/html, text/markdown, text/plain;q=0.9, application/json;q=0.9, */*;q=0.5', 'accept-encoding': 'gzip, deflate, br' }
  const via = proxyUrlFor(options.proxy, url.href)
  if (via === undefined) {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    return collect(send(url, { method: 'GET', signal, lookup: checkedLookup(options.allowPrivate), headers }), url, options, signal)
  }
  let proxy: URL
  try {
    proxy = new URL(via)
  } catch {
    // A proxy variable that is no URL: named as given (cut short), with what to fix.
    return { kind: 'failed', reason: `the proxy ${proxyDisplay(via)} is not a URL (check HTTPS_PROXY / HTTP_PROXY)` }
  }
  try {
    if (!options.allowPrivate && isIP(literal) === 0) {
      const refused = await refusedResolution(literal, signal)
      if (refused !== undefined) return { kind: 'refused', host: literal, address: refused.address, addressKind: refused.kind }
    }
    return await collect(await proxiedRequest(url, proxy, headers, signal), url, options, signal)
  } catch (error) {
    if (signal.aborted) return options.signal.aborted ? { kind: 'failed', reason: 'cancelled' } : { kind: 'timed-out' }
    if (error instanceof ProxyFailure) return { kind: 'failed', reason: error.message }
    throw error
  }
}

/** Sends `request` (not yet ended) and collects its answer. */
function collect(request: ClientRequest, url: URL, options: WebRequestOptions, signal: AbortSignal): Promise<WebResponse> {
  return new Promise((resolve) => {
    request.on('error', (error) => {
      if (error instanceof RefusedAddress) return resolve({ kind: 'refused', host: error.host, address: error.address, addressKind: error.kind })
      if (signal.aborted) return resolve(options.signal.aborted ? { kind: 'failed', reason: 'cancelled' } : { kind: 'timed-out' })
      resolve({ kind: 'failed', reason: error.message })
    })
    request.on('response', (response) => {
      const status = response.statusCode ?? 0
      const location = response.headers.location
      if (status >= 300 && status < 400 && location !== undefined) {
        response.resume()
        let to: string
        try {
          to = new URL(location, url).href
        } catch {
          // A Location that is no URL: say so rather than follow it.
          return resolve({ kind: 'failed', reason: `redirect ${status} to an invalid location ${JSON.stringify(location)}` })
        }
        return resolve({ kind: 'redirect', from: url.href, to, status })
      }
      const chunks: Buffer[] = []
      let size = 0
      let truncated = false
      const body = decoded(response)
      const finish = (): void => resolve({ kind: 'response', url: url.href, status, contentType: response.headers['content-type'] ?? '', body: Buffer.concat(chunks), truncated })
      body.on('data', (chunk: Buffer) => {
        if (truncated) return
        const room = options.maxBytes - size
        chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk)
        size += Math.min(chunk.length, room)
        if (size >= options.maxBytes) {
          truncated = true
          finish()
          request.destroy()
        }
      })
      body.on('end', finish)
      body.on('error', (error: Error) => resolve({ kind: 'failed', reason: `the response could not be decoded (${error.message})` }))
      response.on('aborted', () => resolve(signal.aborted ? { kind: 'timed-out' } : { kind: 'failed', reason: 'the connection closed mid-response' }))
    })
    request.end()
  })
}

/** GETs `url`, following same-host redirects. */
export async function webGet(url: URL, options: WebRequestOptions): Promise<WebResponse> {
  // A timer of our own, not AbortSignal.timeout: a signal only AbortSignal.any holds may be
  // collected before it fires, and the download would then have no deadline.
  const deadline = new AbortController()
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs)
  const cancel = (): void => deadline.abort()
  options.signal.addEventListener('abort', cancel, { once: true })
  try {
    let current = url
    for (let hop = 0; ; hop++) {
      const answer = await getOnce(current, options, deadline.signal)
      if (answer.kind !== 'redirect') return answer
      const next = new URL(answer.to)
      const sameHost = next.hostname === current.hostname && (next.protocol === current.protocol || (current.protocol === 'http:' && next.protocol === 'https:'))
      if (!sameHost || hop >= MAX_REDIRECTS) return answer
      current = next
    }
  } finally {
    clearTimeout(timer)
    options.signal.removeEventListener('abort', cancel)
  }
}
