/**
 * A `fetch` through the environment's HTTP proxy (proxy-settings.ts reads the variables), for the
 * clients that take a fetch of their own (the OpenAI SDK's model requests, MCP's Streamable HTTP):
 * undici's `EnvHttpProxyAgent`, fed from the settings given only (never `process.env` behind the
 * caller's back), tunnels each request (`CONNECT`), so TLS still runs end to end with the host.
 * undici is loaded on the first such fetch only: without a proxy nobody calls this.
 */
import type { ProxySettings } from './proxy-settings.ts'

/** The fetch these clients call: a URL (never a `Request`), a text body or none. */
export type ProxiedFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

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

/**
 * A fetch through the proxy of `settings`. The agent (and undici) is made at the first call and
 * kept for the fetch's life, so connections to the proxy are reused.
 */
export function proxiedFetch(settings: ProxySettings): ProxiedFetch {
  let agent: Promise<{ readonly undici: Undici; readonly dispatcher: InstanceType<Undici['EnvHttpProxyAgent']> }> | undefined
  const ready = (): NonNullable<typeof agent> =>
    (agent ??= loadUndici().then((undici) => ({ undici, dispatcher: new undici.EnvHttpProxyAgent({ httpProxy: settings.httpProxy, httpsProxy: settings.httpsProxy, noProxy: settings.noProxy }) })))
  // The clients hand a standard RequestInit; undici's fetch takes the same fields plus the dispatcher.
  return async (input, init) => {
    // They ask with a URL and a JSON string body (or none); anything else is not their request.
    if (input instanceof Request) throw new TypeError('the proxied fetch takes a URL, not a Request')
    const body = init?.body
    if (body !== undefined && body !== null && typeof body !== 'string') throw new TypeError('the proxied fetch takes a text body')
    const headers = Object.fromEntries(new Headers(init?.headers).entries())
    const { undici, dispatcher } = await ready()
    const answer = await undici.fetch(input, { method: init?.method ?? 'GET', headers, body: body ?? null, signal: init?.signal ?? null, ...(init?.redirect === undefined ? {} : { redirect: init.redirect }), dispatcher })
    // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- undici's Response is the class Node's own fetch returns (from a newer undici); the declarations differ only in buffer type parameters
    return answer as unknown as Response
  }
}
