/**
 * Model requests through the environment's HTTP proxy (`@dsh/runtime` proxy-settings.ts reads
 * the variables): undici's `EnvHttpProxyAgent`, fed from the provider's environment record only
 * (never `process.env` behind the caller's back), tunnels each request (`CONNECT`), so TLS still
 * runs end to end with the model's host. Without a proxy, requests go direct and undici is never
 * loaded.
 */
import type { ProxySettings } from '@dsh/runtime'
import type { OpenAiSdk } from './sdk-loader.ts'

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
