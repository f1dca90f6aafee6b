/**
 * One Server-Sent-Events answer kept open until the page goes or the server closes: `subscribe`
 * gets a writer for JSON messages and returns its unsubscribe; a heartbeat keeps idle proxies and
 * the browser from timing the stream out. The server's `streams` set holds each stream's closer.
 */
import type { Context } from 'hono'
import { streamSSE } from 'hono/streaming'

/** Heartbeat of an idle stream. */
const heartbeatMs = 15_000

/** Writes one message (JSON) on the stream. */
export type SseWrite = (data: unknown) => void

/** The SSE answer of `c`. */
export function sseStream(c: Context, streams: Set<() => void>, subscribe: (write: SseWrite) => () => void): Response {
  return streamSSE(c, async (stream) => {
    let resolveClosed: (() => void) | undefined
    const closed = new Promise<void>((resolve) => (resolveClosed = resolve))
    const close = (): void => resolveClosed?.()
    streams.add(close)
    const unsubscribe = subscribe((data) => {
      stream.writeSSE({ data: JSON.stringify(data) }).catch(() => close()) // a write to a gone page ends the stream
    })
    const heartbeat = setInterval(() => {
      stream.write(': keep-alive\n\n').catch(() => close()) // same: the page went away
    }, heartbeatMs)
    stream.onAbort(close)
    await closed
    clearInterval(heartbeat)
    unsubscribe()
    streams.delete(close)
  })
}
