/**
 * The checks every request passes before any route runs (ARCHITECTURE §6): the `Host` header must
 * name this server (127.0.0.1 or localhost with its port; anything else is DNS rebinding), an
 * `Origin` (or `Sec-Fetch-Site: cross-site`) from another site is refused, so is a request a page of
 * another port on this host makes (`Sec-Fetch-Site: same-site`) unless it navigates to the page, and the per-run token
 * must come as `Authorization: Bearer TOKEN` or as the cookie the first page load set. The page
 * itself trades `?token=` for that cookie (HttpOnly, SameSite=Strict) and redirects to the bare URL.
 */
import { timingSafeEqual } from 'node:crypto'
import type { Context, MiddlewareHandler } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'

/** What the guard checks against. */
export interface GuardOptions {
  readonly token: string
  /** The port the server listens on (known once it listens). */
  readonly port: () => number
}

/** Cookie name; per port, so two hosts on one machine do not overwrite each other's cookie. */
export const cookieName = (port: number): string => `dsh_web_${port}`

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** A JSON error answer. */
export const refuse = (c: Context, status: 400 | 401 | 403 | 404 | 409 | 413 | 415 | 421, message: string): Response => c.json({ error: message }, status)

/** The middleware. */
export function requestGuard(options: GuardOptions): MiddlewareHandler {
  return async (c, next) => {
    const port = options.port()
    const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`]
    const host = c.req.header('host') ?? ''
    if (!allowedHosts.includes(host.toLowerCase())) return refuse(c, 421, `Host ${JSON.stringify(host)} is not this server; open http://127.0.0.1:${port}/`)
    const origin = c.req.header('origin')
    if (origin !== undefined && !allowedHosts.some((allowed) => origin.toLowerCase() === `http://${allowed}`)) return refuse(c, 403, `cross-site request from ${JSON.stringify(origin)} refused`)
    const site = c.req.header('sec-fetch-site')
    if (site === 'cross-site') return refuse(c, 403, 'cross-site request refused')
    // Another server on this host (127.0.0.1:OTHER) is the same site: its page gets the SameSite cookie
    // sent along with requests that carry no Origin (an <img>, a <script>). Only a navigation to the page may come from there.
    if (site === 'same-site' && !(c.req.method === 'GET' && c.req.path === '/' && c.req.header('sec-fetch-mode') === 'navigate')) return refuse(c, 403, 'request from another site on this host refused')
    const name = cookieName(port)
    const query = c.req.query('token')
    if (c.req.method === 'GET' && c.req.path === '/' && query !== undefined) {
      if (!sameToken(query, options.token)) return refuse(c, 401, 'wrong token; use the URL dsh web printed')
      setCookie(c, name, options.token, { httpOnly: true, sameSite: 'Strict', path: '/' })
      return c.redirect('/', 303)
    }
    const bearer = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1]
    if (!sameToken(bearer, options.token) && !sameToken(getCookie(c, name), options.token)) return refuse(c, 401, 'a token is needed; open the URL dsh web printed (it carries the token)')
    await next()
    return undefined
  }
}
