/**
 * Reading a JSON request body against a zod schema: anything else (not JSON, too large, wrong
 * shape) is a 4xx answer with a one-line JSON error naming what is wrong, and the route never runs.
 * Size is checked before the body is buffered: a `Content-Length` over the limit is refused at
 * once, and a chunked body is read only up to the limit.
 */
import type { Context } from 'hono'
import type { z } from 'zod'
import { refuse } from './request-guard.ts'

/** Largest accepted body (a document of the maintainer set fits many times). */
export const maxBodyBytes = 2 * 1024 * 1024

/** The 413 answer; the connection closes after it, since the rest of the body was never read. */
function tooLarge(c: Context): Response {
  c.header('connection', 'close')
  return refuse(c, 413, `the body is larger than ${maxBodyBytes} bytes`)
}

/** The body as text, or undefined once it passes `limit` bytes (the rest is never read). */
async function cappedText(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string | undefined> {
  if (body === null) return ''
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel()
      return undefined
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** The parsed body, or the error response to return. */
export async function jsonBody<T>(c: Context, schema: z.ZodType<T>): Promise<{ readonly ok: true; readonly value: T } | { readonly ok: false; readonly response: Response }> {
  if (!(c.req.header('content-type') ?? '').startsWith('application/json')) return { ok: false, response: refuse(c, 415, 'send the body as application/json') }
  const declared = Number(c.req.header('content-length') ?? Number.NaN)
  if (declared > maxBodyBytes) return { ok: false, response: tooLarge(c) }
  const text = await cappedText(c.req.raw.body, maxBodyBytes)
  if (text === undefined) return { ok: false, response: tooLarge(c) }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    // Malformed JSON is the client's mistake: answered, not thrown.
    return { ok: false, response: refuse(c, 400, `the body is not JSON: ${error instanceof Error ? error.message : String(error)}`) }
  }
  const parsed = schema.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue === undefined || issue.path.length === 0 ? 'body' : issue.path.join('.')
    return { ok: false, response: refuse(c, 400, `${where}: ${issue?.message ?? 'invalid'}`) }
  }
  return { ok: true, value: parsed.data }
}
