/**
 * The checks every request passes before any route runs (ARCHITECTURE §6): the `Host` header must
 * name this server (127.0.0.1, localhost or this run's private `dsh-….localhost` name, with its
 * port; anything else is DNS rebinding), an `Origin` (or `Sec-Fetch-Site: cross-site`) from another
 * site is refused, so is a request a page of another port on this host makes (`Sec-Fetch-Site:
 * same-site`) unless it navigates to the page, and the caller must prove itself with
 * `Authorization: Bearer TOKEN` or this run's cookie (see web-auth.ts for how a browser gets it).
 * Every answer but the page's static assets carries `Cache-Control: no-store`, so transcripts never
 * land in the browser's disk cache.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { setCookie } from 'hono/cookie'
import { cookieValues, type WebAuth } from './web-auth.ts'

/** What the guard checks against. */
export interface GuardOptions {
  readonly auth: WebAuth
  /** The port the server listens on (known once it listens). */
  readonly port: () => number
  /** Move browsers to the private host name (false: keep the cookie on 127.0.0.1, as before). */
  readonly privateHost: boolean
}

/** Cookie name; per port, so two hosts on one machine do not overwrite each other's cookie. */
export const cookieName = (port: number): string => `dsh_web_${port}`

/** A JSON error answer. */
export const refuse = (c: Context, status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 421, message: string): Response => c.json({ error: message }, status)

/** Paths a planted cookie of our name is most likely given; cleared whenever the cookie is set. */
const plantedPaths = ['/api', '/api/', '/api/sessions', '/assets']

const unauthorisedPage = (): string =>
  '<!doctype html><meta charset="utf-8"><title>dsh web</title><p>This page needs the address <code>dsh web</code> printed (it carries a token). If dsh web was restarted, open the new address it printed.</p>'

function setSessionCookie(c: Context, port: number, value: string): void {
  const name = cookieName(port)
  for (const path of plantedPaths) c.header('set-cookie', `${name}=; Path=${path}; Max-Age=0; HttpOnly; SameSite=Strict`, { append: true })
  setCookie(c, name, value, { httpOnly: true, sameSite: 'Strict', path: '/' })
}

/** The middleware. */
export function requestGuard(options: GuardOptions): MiddlewareHandler {
  const { auth } = options
  return async (c, next) => {
    const port = options.port()
    const privateHost = `${auth.hostName}:${port}`
    const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`, privateHost]
    const host = (c.req.header('host') ?? '').toLowerCase()
    if (!c.req.path.startsWith('/assets/')) c.header('cache-control', 'no-store')
    if (!allowedHosts.includes(host)) return refuse(c, 421, `Host ${JSON.stringify(c.req.header('host') ?? '')} is not this server; open http://127.0.0.1:${port}/`)
    const origin = c.req.header('origin')
    if (origin !== undefined && !allowedHosts.some((allowed) => origin.toLowerCase() === `http://${allowed}`)) return refuse(c, 403, `cross-site request from ${JSON.stringify(origin)} refused`)
    const site = c.req.header('sec-fetch-site')
    if (site === 'cross-site') return refuse(c, 403, 'cross-site request refused')
    // Another server on this host (127.0.0.1:OTHER) is the same site: its page gets SameSite cookies
    // sent along with requests that carry no Origin (an <img>, a <script>). Only a navigation to the page may come from there.
    if (site === 'same-site' && !(c.req.method === 'GET' && c.req.path === '/' && c.req.header('sec-fetch-mode') === 'navigate')) return refuse(c, 403, 'request from another site on this host refused')
    const onPage = c.req.method === 'GET' && c.req.path === '/'
    const query = c.req.query('token')
    if (onPage && query !== undefined) {
      if (!auth.isToken(query)) return refuse(c, 401, 'wrong token; use the URL dsh web printed')
      if (options.privateHost && host !== privateHost) return c.redirect(`http://${privateHost}/?ticket=${auth.issueTicket()}`, 303)
      setSessionCookie(c, port, auth.cookieValue)
      return c.redirect('/', 303)
    }
    const ticket = c.req.query('ticket')
    if (onPage && ticket !== undefined) {
      if (host !== privateHost || !auth.redeemTicket(ticket)) return refuse(c, 401, 'this link was already used or has expired; open the URL dsh web printed')
      setSessionCookie(c, port, auth.cookieValue)
      return c.redirect('/', 303)
    }
    const bearer = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1]
    if (!auth.isToken(bearer) && !auth.anyCookieValid(cookieValues(c.req.header('cookie'), cookieName(port)))) {
      if (onPage) return c.html(unauthorisedPage(), 401)
      return refuse(c, 401, 'a token is needed; open the URL dsh web printed (it carries the token)')
    }
    await next()
    return undefined
  }
}
