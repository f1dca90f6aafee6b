/**
 * A `web_fetch` download through an HTTP proxy (the environment's, `@dsh/runtime`
 * proxy-settings.ts). An https page goes through a `CONNECT` tunnel opened first, with TLS end to
 * end and the certificate checked against the page's host; an http page is asked of the proxy
 * with its absolute URL, as forward proxies take it. Credentials in the proxy URL go as
 * `Proxy-Authorization: Basic`. Only `http://` proxy URLs are used. The address guard cannot see
 * where the proxy connects: the page's name is checked as it resolves here first (a name that
 * resolves to a private address is refused; one that does not resolve here is left to the proxy,
 * as a locked-down network resolves outside names only there). It is built on `node:http` like a
 * direct download, not on undici's proxied fetch (model requests, MCP), so both kinds of download
 * share one response path (size cap, decoding, redirects) in web-request.ts.
 */
import { lookup } from 'node:dns/promises'
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import { proxyDisplay } from '@dsh/runtime'
import { addressKind, type AddressKind } from './web-address.ts'

/** Why a download through the proxy could not start. */
export class ProxyFailure extends Error {}

/** A page name that resolves here to an address the guard refuses. */
export interface RefusedName {
  readonly address: string
  readonly kind: AddressKind
}

/** The first refused address `host` resolves to here; undefined when all are public or it does not resolve here. */
export async function refusedResolution(host: string, signal: AbortSignal): Promise<RefusedName | undefined> {
  let addresses: { readonly address: string }[]
  try {
    addresses = await lookup(host, { all: true })
  } catch (error) {
    // No answer here (ENOTFOUND, EAI_AGAIN): the proxy resolves outside names in such networks.
    if (signal.aborted) throw error
    return undefined
  }
  for (const { address } of addresses) {
    const kind = addressKind(address)
    if (kind !== undefined) return { address, kind }
  }
  return undefined
}

/** A URL component percent-decoded; as written when it is no valid encoding (`%zz`). */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    // Not valid percent-encoding: the credentials are sent as written, for the proxy to judge.
    return part
  }
}

const proxyHeaders = (proxy: URL): Record<string, string> =>
  proxy.username === '' && proxy.password === '' ? {} : { 'proxy-authorization': `Basic ${Buffer.from(`${decoded(proxy.username)}:${decoded(proxy.password)}`).toString('base64')}` }

/** A URL's host name as sockets take it (an IPv6 literal without its brackets). */
const bare = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1')

const portOf = (url: URL): number => Number(url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : url.port)

/**
 * A socket tunnelled by `proxy` to the page's host and port. Each request to the proxy (this
 * `CONNECT`, and an http page's GET) opens a connection of its own (`agent: false`): a connection
 * kept alive from an earlier download may already be closed by the proxy, and a request sent on
 * it fails with "socket hang up".
 */
function tunnel(proxy: URL, url: URL, signal: AbortSignal): Promise<Socket> {
  const target = `${url.hostname}:${portOf(url)}`
  return new Promise((resolve, reject) => {
    const asked = httpRequest({ host: bare(proxy), port: portOf(proxy), method: 'CONNECT', path: target, headers: { host: target, ...proxyHeaders(proxy) }, signal, agent: false })
    const refused = (status: number | undefined): ProxyFailure => new ProxyFailure(`the proxy ${proxyDisplay(proxy.href)} refused the tunnel to ${target} (HTTP ${status ?? 0})`)
    asked.on('connect', (answer: IncomingMessage, socket: Socket) => {
      if (answer.statusCode === 200) return resolve(socket)
      socket.destroy()
      reject(refused(answer.statusCode))
    })
    // A refusal with a body (407 asking for credentials) arrives as an ordinary response.
    asked.on('response', (answer: IncomingMessage) => {
      answer.resume()
      reject(refused(answer.statusCode))
    })
    asked.on('error', (error) => reject(signal.aborted ? error : new ProxyFailure(`cannot reach the proxy ${proxyDisplay(proxy.href)}: ${error.message}`)))
    asked.end()
  })
}

/** The GET request of `url` through `proxy` (not yet ended); rejects with {@link ProxyFailure} when the tunnel cannot be opened. */
export async function proxiedRequest(url: URL, proxy: URL, headers: Record<string, string>, signal: AbortSignal): Promise<ClientRequest> {
  if (proxy.protocol !== 'http:') throw new ProxyFailure(`the proxy ${proxyDisplay(proxy.href)} is not an http:// proxy, which is all web_fetch can use`)
  if (url.protocol === 'http:') {
    return httpRequest({ host: bare(proxy), port: portOf(proxy), method: 'GET', path: url.href, headers: { ...headers, host: url.host, ...proxyHeaders(proxy) }, signal, agent: false })
  }
  const socket = await tunnel(proxy, url, signal)
  const host = bare(url)
  const secure = tlsConnect({ socket, host, ...(isIP(host) === 0 ? { servername: host } : {}), ALPNProtocols: ['http/1.1'] })
  // The handshake may fail (an untrusted certificate) before the request listens on its socket:
  // the failure is the request's from the start, never an unhandled 'error' that ends dsh.
  const failed = (error: Error): void => {
    request.destroy(error)
  }
  secure.on('error', failed)
  socket.on('error', (error) => secure.destroy(error))
  // No `agent` option: with `agent: false` Node makes a new Agent, which ignores `createConnection`
  // and would connect to the page directly, past the proxy.
  const request = httpsRequest({ host, port: portOf(url), method: 'GET', path: `${url.pathname}${url.search}`, headers: { ...headers, host: url.host, connection: 'close' }, signal, createConnection: () => secure })
  // The tunnel is this download's alone: closed once the answer is read, or the request fails or is
  // abandoned (a server that keeps the connection open would otherwise keep dsh from exiting).
  const release = (): void => {
    secure.destroy()
    socket.destroy()
  }
  request.on('response', (answer: IncomingMessage) => answer.on('end', release))
  request.on('close', release)
  request.on('error', release)
  return request
}
