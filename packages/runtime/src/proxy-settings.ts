/**
 * The HTTP proxy the environment names, as curl and the peers read it: `HTTPS_PROXY` for https
 * URLs (else `HTTP_PROXY`), `HTTP_PROXY` for http ones, `NO_PROXY` (a comma- or space-separated
 * list of hosts, each also covering its subdomains, optionally with `:port`; or `*` for all) for
 * the hosts that go direct; the lowercase names win over the uppercase ones. Matching follows
 * undici's `EnvHttpProxyAgent`, which carries model requests (llm-openai), so every user of these
 * settings (model requests, `web_fetch`) and every message naming the proxy agree. Pure functions
 * of the environment record given (never `process.env`).
 */

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
  // As written, but never what comes before an "@" (user:password@host without a scheme).
  const at = proxy.lastIndexOf('@')
  const masked = at < 0 ? proxy : `***${proxy.slice(at)}`
  const asGiven = masked.length > 80 ? `${masked.slice(0, 80)}…` : masked
  let url: URL
  try {
    url = new URL(proxy)
  } catch {
    // Not a URL: the request fails with its own error; name it as given, cut short.
    return asGiven
  }
  // A scheme with no origin ("proxy.corp:3128" parses as scheme "proxy.corp:"): as given.
  if (url.origin === 'null') return url.username === '' && url.password === '' ? asGiven : '***'
  if (url.username === '' && url.password === '') return url.origin
  return `${url.protocol}//***@${url.host}`
}

/** The proxy URL a request to `target` goes through under `settings` (undefined: direct, or bypassed by NO_PROXY). */
export function proxyUrlFor(settings: ProxySettings | undefined, target: string): string | undefined {
  if (settings === undefined) return undefined
  let url: URL
  try {
    url = new URL(target)
  } catch {
    // A target that is no URL fails at its request with its own message; no proxy for it.
    return undefined
  }
  if (bypassed(settings.noProxy, url)) return undefined
  const proxy = url.protocol === 'https:' && settings.httpsProxy !== '' ? settings.httpsProxy : settings.httpProxy
  return proxy === '' ? undefined : proxy
}

/** {@link proxyUrlFor} as messages name it (credentials masked). */
export function proxyFor(settings: ProxySettings | undefined, target: string): string | undefined {
  const proxy = proxyUrlFor(settings, target)
  return proxy === undefined ? undefined : proxyDisplay(proxy)
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
