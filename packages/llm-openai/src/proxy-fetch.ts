/**
 * Model requests through an HTTP proxy, as curl and the peers read it from the environment:
 * `HTTPS_PROXY` for https URLs (else `HTTP_PROXY`), `HTTP_PROXY` for http ones, `NO_PROXY` (a
 * comma- or space-separated list of hosts, each also covering its subdomains, optionally with
 * `:port`; or `*` for all) for the hosts that go direct; the lowercase names win over the
 * uppercase ones. An https request is tunnelled
 * (`CONNECT`), so TLS still runs end to end with the model's host. Without any of these variables
 * requests go direct and `undici` is never loaded; with them, requests go through undici's
 * `EnvHttpProxyAgent` fed from the provider's environment record only (never `process.env`
 * behind the caller's back).
 */
import type { OpenAiSdk } from './sdk-loader.ts'

/** The proxy variables in effect; `''` where one is not set. */
export interface ProxySettings {
  readonly httpProxy: string
  readonly httpsProxy: string
  readonly noProxy: string
}

const valueOf = (env: Readonly<Record<string, string | undefined>>, name: string): string => {
  const lower = env[name.toLowerCase()]?.trim()
  if (lower !== undefined && lower !== '') return lower
  return env[name]?.trim() ?? ''
}

/** The proxy settings of `env`, or undefined when no proxy is set (requests go direct). */
export function proxySettings(env: Readonly<Record<string, string | undefined>>): ProxySettings | undefined {
  const settings = { httpProxy: valueOf(env, 'HTTP_PROXY'), httpsProxy: valueOf(env, 'HTTPS_PROXY'), noProxy: valueOf(env, 'NO_PROXY') }
  return settings.httpProxy === '' && settings.httpsProxy === '' ? undefined : settings
}

/** A proxy URL as messages name it: user and password replaced by `***`; the text as given when it is no URL. */
export function proxyDisplay(proxy: string): string {
  try {
    const url = new URL(proxy)
    if (url.username === '' && url.password === '') return url.origin
    return `${url.protocol}//***@${url.host}`
  } catch {
    // Not a URL: undici refuses it at the first request with its own error; name it as given, cut short.
    return proxy.length > 80 ? `${proxy.slice(0, 80)}…` : proxy
  }
}

/** The proxy a request to `baseUrl` is sent through under `settings`, for messages (undefined: direct or bypassed by NO_PROXY). */
export function proxyFor(settings: ProxySettings | undefined, baseUrl: string): string | undefined {
  if (settings === undefined) return undefined
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    // A base URL that is no URL fails at the request with its own message; no proxy to name.
    return undefined
  }
  if (bypassed(settings.noProxy, url)) return undefined
  const proxy = url.protocol === 'https:' && settings.httpsProxy !== '' ? settings.httpsProxy : settings.httpProxy
  return proxy === '' ? undefined : proxyDisplay(proxy)
}

/**
 * Whether `NO_PROXY` sends `url` direct, decided as undici's `EnvHttpProxyAgent` decides it (so a
 * message names the proxy exactly when the request used it): `*` alone bypasses everything; an
 * entry (a leading `.` or `*.` dropped) matches its host and the host's subdomains, and with
 * `:port` only that port.
 */
function bypassed(noProxy: string, url: URL): boolean {
  const entries = noProxy.split(/[,\s]/).filter((entry) => entry !== '')
  if (entries.length === 0) return false
  if (noProxy === '*') return true
  const host = url.host.replace(/:\d*$/, '').toLowerCase()
  const port = Number.parseInt(url.port, 10) || (url.protocol === 'https:' ? 443 : 80)
  for (const entry of entries) {
    const parsed = /^(.+):(\d+)$/.exec(entry)
    const name = (parsed?.[1] ?? entry).replace(/^\*?\./, '').toLowerCase()
    const entryPort = parsed?.[2] === undefined ? 0 : Number.parseInt(parsed[2], 10)
    if (entryPort !== 0 && entryPort !== port) continue
    if (host === name || host.endsWith(`.${name}`)) return true
  }
  return false
}

type Undici = typeof import('undici')

const isUndici = (value: unknown): value is Undici => typeof value === 'object' && value !== null && typeof Reflect.get(value, 'EnvHttpProxyAgent') === 'function' && typeof Reflect.get(value, 'fetch') === 'function'

/** undici, loaded on first use; bundled as CommonJS its exports may sit on the namespace's `default` only. */
async function loadUndici(): Promise<Undici> {
  const loaded = await import('undici')
  if (isUndici(loaded)) return loaded
  const inner: unknown = Reflect.get(loaded, 'default')
  if (isUndici(inner)) return inner
  throw new Error('the undici module has no EnvHttpProxyAgent: the HTTP proxy cannot be used')
}

/** The SDK's `fetch` option: a fetch through the proxy of `settings` (undici loaded here, once per provider). */
export async function proxiedFetch(settings: ProxySettings): Promise<NonNullable<ConstructorParameters<OpenAiSdk['default']>[0]>['fetch']> {
  const undici = await loadUndici()
  const dispatcher = new undici.EnvHttpProxyAgent({ httpProxy: settings.httpProxy, httpsProxy: settings.httpsProxy, noProxy: settings.noProxy })
  // The SDK hands a standard RequestInit; undici's fetch takes the same fields plus the dispatcher.
  return async (input, init) => {
    // The SDK asks with a URL and a JSON string body (or none); anything else is not its request.
    if (input instanceof Request) throw new TypeError('the proxied fetch takes a URL, not a Request')
    const body = init?.body
    if (body !== undefined && body !== null && typeof body !== 'string') throw new TypeError('the proxied fetch takes a text body')
    const headers = Object.fromEntries(new Headers(init?.headers).entries())
    const answer = await undici.fetch(input, { method: init?.method ?? 'GET', headers, body: body ?? null, signal: init?.signal ?? null, dispatcher })
    // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- undici's Response is the class Node's own fetch returns (from a newer undici); the declarations differ only in buffer type parameters
    return answer as unknown as Response
  }
}
