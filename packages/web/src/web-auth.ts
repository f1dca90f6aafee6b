/**
 * Who may use the web host, and how a browser proves it. The bearer token `dsh web` prints never
 * becomes a cookie: the first load of the printed URL (`http://127.0.0.1:PORT/?token=…`) trades it
 * for a one-time ticket and moves the browser to this run's private host name
 * (`dsh-<random>.localhost`, which Chromium and Firefox resolve to loopback themselves), where the
 * ticket becomes a cookie holding a separate per-run secret. A host-only cookie of that name is never
 * sent to other servers on 127.0.0.1 or localhost (cookies are not kept apart by port, host names
 * are), so a dev server the agent starts and the user opens learns nothing usable.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'

/** How long a ticket may wait for the browser to follow the redirect. */
export const ticketLifetimeMs = 60_000

/** The per-run secrets and the tickets in flight. */
export interface WebAuth {
  /** The bearer token (`Authorization: Bearer …`, and `?token=` of the printed URL). */
  readonly token: string
  /** `dsh-<hex>.localhost`: the host name the cookie lives on. */
  readonly hostName: string
  /** Whether `given` is the bearer token (constant time). */
  isToken(given: string | undefined): boolean
  /** Whether any of the presented cookie values is this run's cookie secret. */
  anyCookieValid(values: readonly string[]): boolean
  /** The cookie value to set (never the bearer token). */
  readonly cookieValue: string
  /** A new one-time ticket. */
  issueTicket(): string
  /** Consumes a ticket: true once, for a ticket issued less than a lifetime ago. */
  redeemTicket(ticket: string | undefined): boolean
}

function sameSecret(given: string | undefined, secret: string): boolean {
  if (given === undefined) return false
  const a = Buffer.from(given)
  const b = Buffer.from(secret)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** Fresh secrets for one run; `now` is the clock (tests pass their own). */
export function createWebAuth(options: { readonly now?: () => number } = {}): WebAuth {
  const now = options.now ?? Date.now
  const token = randomBytes(32).toString('base64url')
  const cookieValue = randomBytes(32).toString('base64url')
  const hostName = `dsh-${randomBytes(6).toString('hex')}.localhost`
  const tickets = new Map<string, number>()
  return {
    token,
    hostName,
    cookieValue,
    isToken: (given) => sameSecret(given, token),
    anyCookieValid: (values) => values.some((value) => sameSecret(value, cookieValue)),
    issueTicket() {
      for (const [ticket, issued] of tickets) if (now() - issued > ticketLifetimeMs) tickets.delete(ticket)
      const ticket = randomBytes(24).toString('base64url')
      tickets.set(ticket, now())
      return ticket
    },
    redeemTicket(ticket) {
      if (ticket === undefined) return false
      const issued = tickets.get(ticket)
      if (issued === undefined) return false
      tickets.delete(ticket)
      return now() - issued <= ticketLifetimeMs
    },
  }
}

/**
 * Every value of cookie `name` in a `Cookie` header, in order. A page of another local server can
 * plant a cookie of the same name with a longer path (`Path=/api`), which the browser sends first;
 * the guard accepts the request when any of them is valid instead of reading only the first.
 */
export function cookieValues(header: string | undefined, name: string): string[] {
  if (header === undefined) return []
  const values: string[] = []
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue
    let value = part.slice(eq + 1).trim()
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1)
    values.push(value)
  }
  return values
}
