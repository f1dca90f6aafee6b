/**
 * The connect / first-byte timeout against a real loopback server that accepts and never
 * answers, and the transport failures that are never retried (a port Node refuses, TLS spoken to
 * a plain-http server). The timeouts run on a fake clock, advanced once the server has the
 * attempt's request (a real 150 ms could pass on a loaded machine before the request even reached
 * the server, or before a prompt answer arrived); the server and the sockets are real.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startSseServer, type SseServer } from '@dsh/testkit'
import { DEFAULT_CONNECT_TIMEOUT_MS } from '../src/index.ts'
import { collect, collectFailure, finish, joinText, messageOf, testProvider, text } from './helpers.ts'

let server: SseServer | undefined
afterEach(async () => {
  vi.useRealTimers()
  await server?.close()
  server = undefined
})

const ok = { kind: 'sse', chunks: [text('hello'), finish()] } as const

describe('a server that accepts and never answers', () => {
  it('fails each attempt after connectTimeoutMs and announces every retry with its attempt and delay', async () => {
    server = await startSseServer([{ kind: 'silent' }])
    const { provider, logs, sleeps } = testProvider(server.baseUrl, { connectTimeoutMs: 150, maxRetries: 2 })
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const failure = collectFailure(provider)
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await vi.waitUntil(() => server?.requests.length === attempt, { interval: 5, timeout: 30_000 })
      await vi.advanceTimersByTimeAsync(150)
    }
    const { error } = await failure
    expect(server.requests).toHaveLength(3)
    expect(logs).toEqual([
      `deepseek: MODEL_NETWORK (no response from the server within 150 ms (connectTimeoutMs)); attempt 2 of 3 in ${sleeps[0]} ms`,
      `deepseek: MODEL_NETWORK (no response from the server within 150 ms (connectTimeoutMs)); attempt 3 of 3 in ${sleeps[1]} ms`,
    ])
    expect(messageOf(error)).toBe(`cannot reach ${server.baseUrl} after 2 retries: no response from the server within 150 ms (connectTimeoutMs)`)
  })

  it('succeeds on the next attempt when the server answers then', async () => {
    server = await startSseServer([{ kind: 'silent' }, ok])
    const { provider, logs } = testProvider(server.baseUrl, { connectTimeoutMs: 150 })
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const events = collect(provider)
    await vi.waitUntil(() => server?.requests.length === 1, { interval: 5, timeout: 30_000 })
    await vi.advanceTimersByTimeAsync(150)
    expect(joinText(await events)).toBe('hello')
    expect(logs).toHaveLength(1)
  })

  it('waits 30 s by default, whatever the idle timeout between chunks is', async () => {
    server = await startSseServer([{ kind: 'silent' }])
    const { provider } = testProvider(server.baseUrl, { maxRetries: 0, idleTimeoutMs: 1_000 })
    expect(DEFAULT_CONNECT_TIMEOUT_MS).toBe(30_000)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let settled: unknown
    const failure = collectFailure(provider).then((outcome) => (settled = outcome.error))
    await vi.waitUntil(() => server?.requests.length === 1, { interval: 5, timeout: 10_000 })
    await vi.advanceTimersByTimeAsync(29_900)
    expect(settled).toBeUndefined()
    await vi.advanceTimersByTimeAsync(200)
    await failure
    expect(messageOf(settled)).toContain('no response from the server within 30000 ms (connectTimeoutMs)')
  })
})

describe('transport failures that are not retried', () => {
  it('a port Node refuses (bad port) fails at once with a hint', async () => {
    const { provider, logs, sleeps } = testProvider('http://127.0.0.1:6000/v1')
    const { error } = await collectFailure(provider)
    expect(error).toMatchObject({ code: 'MODEL_NETWORK' })
    expect(messageOf(error)).toBe(
      'cannot reach http://127.0.0.1:6000/v1: Node refuses to connect to this port ("bad port": it is on the fetch block list, like 6000 or 6667); serve the model on another port',
    )
    expect([logs, sleeps]).toEqual([[], []])
  })

  it('https:// pointed at a plain-http server fails at once and says to use http://', async () => {
    server = await startSseServer([ok])
    const { provider, logs } = testProvider(server.baseUrl.replace('http://', 'https://'))
    const { error } = await collectFailure(provider)
    expect(messageOf(error)).toContain('the server does not speak TLS (ERR_SSL_WRONG_VERSION_NUMBER); use http:// in the base URL')
    expect(logs).toEqual([])
  })
})
