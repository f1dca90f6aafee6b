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

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: body === undefined ? {} : { 'content-type': 'application/json' } }
  if (body !== undefined) init.body = JSON.stringify(body)
  const response = await fetch(`/api${path}`, init)
  const data = (await response.json().catch(() => ({}))) as { error?: string }
  if (!response.ok) throw new ApiError(response.status, data.error ?? `${response.status} ${response.statusText}`)
  return data as T
}

export const get = <T>(path: string): Promise<T> => call<T>('GET', path)
export const post = <T>(path: string, body: unknown = {}): Promise<T> => call<T>('POST', path, body)
export const put = <T>(path: string, body: unknown): Promise<T> => call<T>('PUT', path, body)

/** The path of a live session's route. */
export const sessionPath = (id: string, rest = ''): string => `/sessions/${encodeURIComponent(id)}${rest}`

/** Message of any failure, for the page. */
export const failure = (error: unknown): string => (error instanceof Error ? error.message : String(error))
