/**
 * A real loopback HTTP server speaking the chat-completions streaming wire format
 * (`data: {json}\n\n` … `data: [DONE]\n\n`), scripted per request, recording every request's
 * body and headers and when the client closed its connection. Tests point the provider's
 * `baseUrl` at it; nothing is mocked below the HTTP layer.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import { realDelay } from './driven-clock.ts'

/** How the server answers one request. */
export type Reply =
  | {
      /** Stream these chunks as SSE events. */
      readonly kind: 'sse'
      readonly chunks: readonly object[]
      /** Send `data: [DONE]` and end (default true). Ignored with `dropAfter` / `hangAfter`. */
      readonly done?: boolean
      /** Destroy the socket after this many chunks (a connection reset mid-stream). */
      readonly dropAfter?: number
      /** Stop after this many chunks and keep the connection open until the client leaves. */
      readonly hangAfter?: number
      /** Answer only once this settles (a test holds the model's answer until it saw something happen first). */
      readonly holdUntil?: Promise<unknown>
    }
  | { /** A non-streaming JSON reply, e.g. an error. */ readonly kind: 'json'; readonly status: number; readonly body: object; readonly headers?: Readonly<Record<string, string>> }
  | { /** Destroy the connection before sending a single byte. */ readonly kind: 'destroy' }
  | { /** Never answer (not even headers) until the client leaves. */ readonly kind: 'silent' }

/** One request as the server saw it. */
export interface RecordedRequest {
  readonly method: string
  readonly url: string
  readonly headers: IncomingHttpHeaders
  /** Parsed JSON body. */
  readonly body: unknown
  /** Resolves when the connection for this request closed (either side). */
  readonly closed: Promise<void>
  /** True once the server finished its reply normally (false if the client hung up first). */
  readonly completed: () => boolean
}

/** A running server. */
export interface SseServer extends AsyncDisposable {
  /** Base URL to hand the SDK, e.g. `http://127.0.0.1:41234/v1`. */
  readonly baseUrl: string
  /** Requests received so far, in order. */
  readonly requests: RecordedRequest[]
  /** Stops the server and drops open connections. */
  close(): Promise<void>
}

/** Starts a server on 127.0.0.1, port 0; `replies[i]` answers request i (the last one repeats). */
export async function startSseServer(replies: readonly Reply[]): Promise<SseServer> {
  const requests: RecordedRequest[] = []
  const server = createServer((req, res) => {
    const parts: Buffer[] = []
    req.on('data', (part: Buffer) => parts.push(part))
    req.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8')
      let completed = false
      const closed = new Promise<void>((resolve) => res.once('close', () => resolve()))
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: text === '' ? undefined : JSON.parse(text),
        closed,
        completed: () => completed,
      })
      const reply = replies[Math.min(requests.length - 1, replies.length - 1)]
      if (!reply) throw new Error('sse-server: no replies scripted')
      void answer(reply, res).then((finished) => {
        completed = finished
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('sse-server: not listening on TCP')
  const { port } = address
  const close = async (): Promise<void> => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
  return { baseUrl: `http://127.0.0.1:${port}/v1`, requests, close, [Symbol.asyncDispose]: close }
}

/** Writes one reply; resolves true when it ended normally. */
async function answer(reply: Reply, res: ServerResponse): Promise<boolean> {
  if (reply.kind === 'destroy') {
    res.socket?.destroy()
    return false
  }
  if (reply.kind === 'silent') return false
  if (reply.kind === 'json') {
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers })
    res.end(JSON.stringify(reply.body))
    return true
  }
  if (reply.holdUntil !== undefined) await reply.holdUntil.catch(() => undefined)
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
  // Headers go out at once, as a streaming server sends them before its first event.
  res.flushHeaders()
  for (const [index, chunk] of reply.chunks.entries()) {
    if (index === reply.dropAfter) return drop(res)
    if (index === reply.hangAfter) return false
    await write(res, `data: ${JSON.stringify(chunk)}\n\n`)
    // Give the client a chance to read each event separately, as a real server would. Real time
    // even when the test fakes the clock: the server is the world, not the code under test.
    await realDelay(2)
  }
  if (reply.dropAfter !== undefined) return drop(res)
  if (reply.hangAfter !== undefined) return false
  if (reply.done ?? true) await write(res, 'data: [DONE]\n\n')
  res.end()
  return true
}

function drop(res: ServerResponse): boolean {
  res.socket?.destroy()
  return false
}

function write(res: ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) {
      resolve()
      return
    }
    res.write(text, () => resolve())
  })
}
