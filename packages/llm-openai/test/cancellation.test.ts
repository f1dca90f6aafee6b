/**
 * Cancellation: aborting the signal stops a stream promptly with an `AbortError` (mid-stream,
 * while waiting for headers, during a backoff sleep), the server sees the connection close, and
 * a consumer that stops early also releases the connection.
 */
import { getEventListeners } from 'node:events'
import { afterEach, describe, expect, it } from 'vitest'
import { createOpenAiProvider } from '../src/index.ts'
import { startSseServer, type SseServer } from '@dsh/testkit'
import { collect, collectFailure, finish, request, testProvider, text } from './helpers.ts'

let server: SseServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** A sleep that never ends and ignores its signal. */
const never = (): Promise<void> => new Promise(() => undefined)

/** Aborts `controller` as soon as `ready()` holds (polled every 5 ms). */
function abortWhen(controller: AbortController, ready: () => boolean, onAbort: () => void = () => undefined): void {
  const poll = setInterval(() => {
    if (!ready()) return
    clearInterval(poll)
    onAbort()
    controller.abort()
  }, 5)
}

/**
 * A hang guard: fails the test if `promise` takes longer than `ms`. Generous for a loaded machine;
 * each case is built so that without the behaviour under test the promise never settles at all.
 */
const HANG_GUARD_MS = 20_000

/** Fails the test if `promise` takes longer than `ms`. */
async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([promise, late])
  } finally {
    clearTimeout(timer)
  }
}

describe('cancellation', () => {
  it('rejects promptly with AbortError when aborted mid-stream, and the server sees the socket close', async () => {
    server = await startSseServer([{ kind: 'sse', chunks: [text('first '), text('second')], hangAfter: 2 }])
    const { provider } = testProvider(server.baseUrl)
    const controller = new AbortController()
    const seen: string[] = []
    const run = (async () => {
      for await (const event of provider.stream(request, controller.signal)) {
        if (event.type === 'text') seen.push(event.text)
        if (seen.length === 2) setTimeout(() => controller.abort(), 10)
      }
    })()
    // The server hangs after two chunks: only the abort can end the stream.
    await expect(within(HANG_GUARD_MS, run)).rejects.toMatchObject({ name: 'AbortError' })
    expect(seen).toEqual(['first ', 'second'])
    const [sent] = server.requests
    await within(HANG_GUARD_MS, sent?.closed ?? Promise.reject(new Error('no request')))
    expect(sent?.completed()).toBe(false)
  })

  it('rejects with AbortError when aborted while waiting for response headers', async () => {
    server = await startSseServer([{ kind: 'silent' }])
    const controller = new AbortController()
    // Abort once the request is known to wait for headers (a fixed delay loses that race under load).
    abortWhen(controller, () => server?.requests.length === 1)
    const { error } = await within(HANG_GUARD_MS, collectFailure(testProvider(server.baseUrl).provider, controller.signal))
    expect(error).toMatchObject({ name: 'AbortError' })
    await within(HANG_GUARD_MS, server.requests[0]?.closed ?? Promise.reject(new Error('no request')))
  })

  it('rejects with AbortError during a backoff sleep (default sleep, long retry-after)', async () => {
    server = await startSseServer([{ kind: 'json', status: 429, body: { error: { message: 'busy' } }, headers: { 'retry-after': '30' } }])
    const logs: string[] = []
    const env = { DEEPSEEK_API_KEY: 'sk-test-key' }
    const provider = createOpenAiProvider({ provider: 'deepseek', model: 'deepseek-v4-flash', baseUrl: server.baseUrl, env, logger: (line) => logs.push(line) })
    const controller = new AbortController()
    // Abort once the backoff sleep has begun (its announcement is logged right before it). The hang
    // guard (20 s) is shorter than the 30 s the server asks for: a sleep the abort did not end fails.
    abortWhen(controller, () => logs.length === 1)
    const { error } = await within(HANG_GUARD_MS, collectFailure(provider, controller.signal))
    expect(error).toMatchObject({ name: 'AbortError' })
    expect(logs).toEqual(['deepseek: HTTP 429 MODEL_RATE_LIMIT (busy); attempt 2 of 5 in 30000 ms'])
    expect(server.requests).toHaveLength(1)
  })

  it('still rejects promptly when an injected sleep ignores the signal', async () => {
    server = await startSseServer([{ kind: 'json', status: 500, body: { error: { message: 'down' } } }])
    let sleeping = false
    const { provider } = testProvider(server.baseUrl, {
      sleep: () => {
        sleeping = true
        return never()
      },
    })
    const controller = new AbortController()
    // Abort once the provider sleeps before its retry (a fixed delay may abort before the request).
    abortWhen(controller, () => sleeping)
    const { error } = await within(HANG_GUARD_MS, collectFailure(provider, controller.signal))
    expect(error).toMatchObject({ name: 'AbortError' })
  })

  it('rejects with AbortError without sending anything when the signal is already aborted', async () => {
    server = await startSseServer([{ kind: 'sse', chunks: [text('x'), finish()] }])
    const { error } = await collectFailure(testProvider(server.baseUrl).provider, AbortSignal.abort())
    expect(error).toMatchObject({ name: 'AbortError' })
    expect(server.requests).toHaveLength(0)
  })

  it('closes the connection when the consumer stops iterating early', async () => {
    server = await startSseServer([{ kind: 'sse', chunks: [text('one'), text('two')], hangAfter: 2 }])
    const { provider } = testProvider(server.baseUrl)
    for await (const event of provider.stream(request, new AbortController().signal)) {
      expect(event).toEqual({ type: 'text', text: 'one' })
      break
    }
    await within(HANG_GUARD_MS, server.requests[0]?.closed ?? Promise.reject(new Error('no request')))
    expect(server.requests[0]?.completed()).toBe(false)
  })

  it('leaves no abort listeners behind on a signal reused across many calls', async () => {
    server = await startSseServer([{ kind: 'sse', chunks: [text('x'), finish()] }])
    const { provider } = testProvider(server.baseUrl)
    const controller = new AbortController()
    for (let call = 0; call < 12; call += 1) await collect(provider, controller.signal)
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0)
  })
})
