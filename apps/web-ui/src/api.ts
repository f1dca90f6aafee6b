/**
 * Calls of the page to its own server: JSON in and out, the cookie carries the token. A non-2xx
 * answer rejects with the server's one-line `error` message.
 */

/** A failed call, with the server's message. */
export class ApiError extends Error {
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

const errorOf = (data: unknown): string | undefined => {
  const value: unknown = typeof data === 'object' && data !== null ? Object.getOwnPropertyDescriptor(data, 'error')?.value : undefined
  return typeof value === 'string' ? value : undefined
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: body === undefined ? {} : { 'content-type': 'application/json' } }
  if (body !== undefined) init.body = JSON.stringify(body)
  const response = await fetch(`/api${path}`, init)
  const data: unknown = await response.json().catch(() => ({})) // a body that is not JSON: the status line says enough
  if (!response.ok) throw new ApiError(response.status, errorOf(data) ?? `${response.status} ${response.statusText}`)
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- each caller names the answer shape of the route it calls (api-types.ts)
  return data as T
}

export const get = <T>(path: string): Promise<T> => call<T>('GET', path)
export const post = <T>(path: string, body: unknown = {}): Promise<T> => call<T>('POST', path, body)
export const put = <T>(path: string, body: unknown): Promise<T> => call<T>('PUT', path, body)

/** The path of a live session's route. */
export const sessionPath = (id: string, rest = ''): string => `/sessions/${encodeURIComponent(id)}${rest}`

/** Message of any failure, for the page. */
export const failure = (error: unknown): string => (error instanceof Error ? error.message : String(error))
