/**
 * The stream faults DeepSeek shows (research notes §3.4) against the testkit's imitation over
 * loopback HTTP: a reset or a stall after output started and keep-alives after the whole message
 * are retried with the partial output announced as discarded; the last attempt ends in one line;
 * headers then silence fails at the idle limit without retries (F9); valid empty chunks are no
 * progress (F5); one 12 MB event dribbled over a slow link is decoded whole and is not silence
 * (F18); a proxy's HTML 503 page is summarised, not echoed (F16); a context-length 400 has its own
 * code.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { ModelStreamEvent } from '@dsh/contracts'
import { startDeepSeekServer, type DeepSeekAnswer, type DeepSeekServer } from '@dsh/testkit'
import { collect, collectFailure, joinText, messageOf, testProvider } from './helpers.ts'

let server: DeepSeekServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const ok: DeepSeekAnswer = { reasoning: 'The user wants the answer now.', text: 'The answer is 42.' }
const types = (events: readonly ModelStreamEvent[]): string[] => [...new Set(events.map((event) => event.type))]
/** A backoff wait that lasts until something aborts it. */
const untilAborted = (_ms: number, signal: AbortSignal): Promise<void> => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }))
/** Events after the last discarding retry: what the loop keeps. */
const kept = (events: readonly ModelStreamEvent[]): ModelStreamEvent[] => events.slice(events.findLastIndex((event) => event.type === 'retry') + 1)

describe('a stream cut after output started is retried, the partial output discarded', () => {
  it.each(['reset', 'stall', 'keep-alive-only'] as const)('%s: the retry is announced as discarding and the next attempt answers whole', async (fault) => {
    server = await startDeepSeekServer({ answers: [{ ...ok, fault }, ok], keepAliveEveryMs: 20 })
    // Not shorter: the limit must not run out during the healthy second attempt on a loaded machine.
    const { provider, logs } = testProvider(server.baseUrl, { idleTimeoutMs: 1_000 })
    const events = await collect(provider)
    const retryAt = events.findIndex((event) => event.type === 'retry')
    expect(events[retryAt]).toMatchObject({ type: 'retry', attempt: 2, maxAttempts: 5, code: 'MODEL_NETWORK', discarded: true })
    // Output came before the retry (reasoning at least), and the kept part is one whole answer.
    expect(events.findIndex((event) => event.type === 'reasoning')).toBeLessThan(retryAt)
    expect(joinText(kept(events), 'reasoning')).toBe(ok.reasoning)
    expect(joinText(kept(events))).toBe(ok.text)
    expect(server.records.map((record) => record.status)).toEqual([200, 200])
    expect(logs).toHaveLength(1)
    expect(logs[0]).toMatch(/after output had started; retrying: attempt 2 of 5 in \d+ ms, the partial answer is discarded$/)
  })

  it('keep-alive comments never count as progress: a message followed only by keep-alives fails at the idle limit, naming them', async () => {
    server = await startDeepSeekServer({ answers: [{ ...ok, fault: 'keep-alive-only' }], keepAliveEveryMs: 10 })
    const { provider } = testProvider(server.baseUrl, { idleTimeoutMs: 300, maxRetries: 0 })
    const { error } = await collectFailure(provider)
    expect(messageOf(error)).toBe('deepseek response broke off after output had started: the server sent only keep-alive comments for 300 ms (model.idleTimeoutMs)')
  })

  it('after the last attempt: one line naming the cause, with the retries spent', async () => {
    server = await startDeepSeekServer({ answers: [{ ...ok, fault: 'reset' }] })
    const { provider, logs } = testProvider(server.baseUrl, { maxRetries: 2 })
    const { error } = await collectFailure(provider)
    expect(error).toMatchObject({ code: 'MODEL_NETWORK' })
    expect(messageOf(error)).toMatch(/^deepseek response broke off after output had started after 2 retries: \S.*$/)
    expect(messageOf(error)).not.toContain('\n')
    expect(server.records).toHaveLength(3)
    expect(logs).toHaveLength(2)
  })

  it('insufficient_system_resource after reasoning is retried the same way', async () => {
    server = await startDeepSeekServer({ answers: [{ ...ok, finishReason: 'insufficient_system_resource' }, ok] })
    const { provider } = testProvider(server.baseUrl)
    const events = await collect(provider)
    expect(events.find((event) => event.type === 'retry')).toMatchObject({ code: 'MODEL_SERVER', discarded: true })
    expect(joinText(kept(events))).toBe(ok.text)
  })
})

describe('streams that make no progress', () => {
  it('F9: headers then silence fails within the idle limit, in one line, and is not retried', async () => {
    server = await startDeepSeekServer({ answers: [{ fault: 'headers-then-silence' }, ok] })
    const { provider, logs } = testProvider(server.baseUrl, { idleTimeoutMs: 300 })
    const { events, error } = await collectFailure(provider)
    expect(events).toEqual([])
    expect(messageOf(error)).toBe('deepseek response broke off: the server sent the response headers and then nothing for 300 ms (model.idleTimeoutMs)')
    // The imitation records a request once its connection closed.
    await expect.poll(() => server?.records.length).toBe(1)
    expect(logs).toEqual([])
  })

  it('F5: valid empty chunks are no progress: the attempt fails at the idle limit, saying so', async () => {
    server = await startDeepSeekServer({ answers: [{ ...ok, fault: 'empty-chunks' }], keepAliveEveryMs: 10 })
    const { provider } = testProvider(server.baseUrl, { idleTimeoutMs: 300, maxRetries: 0 })
    const { error } = await collectFailure(provider)
    expect(messageOf(error)).toBe('deepseek response broke off: the server sent only empty chunks for 300 ms (model.idleTimeoutMs)')
  })
})

describe('the overall deadline (model.callTimeoutMs)', () => {
  it('a stream that keeps making real progress forever ends at callTimeoutMs in one line, not retried', async () => {
    server = await startDeepSeekServer({ answers: [{ ...ok, fault: 'trickle' }, ok], keepAliveEveryMs: 10 })
    const { provider, logs } = testProvider(server.baseUrl, { idleTimeoutMs: 5_000, callTimeoutMs: 500 })
    const { events, error } = await collectFailure(provider)
    expect(events.length).toBeGreaterThan(0)
    expect(error).toMatchObject({ code: 'MODEL_NETWORK' })
    expect(messageOf(error)).toBe('deepseek call stopped: the model call took longer than 500 ms in all (model.callTimeoutMs)')
    expect(logs).toEqual([])
  })

  it('the deadline also ends a backoff wait between attempts', async () => {
    server = await startDeepSeekServer({ answers: [{ status: 503 }] })
    const { provider, logs } = testProvider(server.baseUrl, { callTimeoutMs: 300, sleep: untilAborted })
    const { error } = await collectFailure(provider)
    expect(messageOf(error)).toBe('deepseek call stopped: the model call took longer than 300 ms in all (model.callTimeoutMs)')
    expect(logs).toHaveLength(1)
  })
})

describe('F18: one big event', () => {
  it('a 12 MB content chunk dribbled for longer than the idle limit arrives whole and is not silence', async () => {
    const text = 'abcdefghij\u00e9\u4e2d'.repeat(12 * 1024 * 1024 / 16)
    // 128 KiB every 15 ms: about a hundred writes, several times the idle limit in all.
    server = await startDeepSeekServer({ answers: [{ reasoning: 'Big.', text, bigEvent: { bytesPerWrite: 128 * 1024, everyMs: 15 } }] })
    const { provider, logs } = testProvider(server.baseUrl, { idleTimeoutMs: 1_000, maxRetries: 0 })
    const events = await collect(provider)
    expect(types(events)).toEqual(['reasoning', 'text', 'usage'])
    expect(events.filter((event) => event.type === 'text')).toHaveLength(1)
    expect(joinText(events) === text).toBe(true)
    expect(logs).toEqual([])
  })
})

describe('F16: what an HTTP error says', () => {
  it("a proxy's HTML 503 page is summarised by its title, bounded, and the message does not say 'cannot reach'", async () => {
    server = await startDeepSeekServer({ answers: [{ status: 503, htmlBody: true }] })
    const { provider } = testProvider(server.baseUrl, { maxRetries: 0 })
    const { error } = await collectFailure(provider)
    expect(messageOf(error)).toBe('deepseek server error (HTTP 503): an HTML page: 503 Service Temporarily Unavailable')
  })

  it('a context-length 400 has its own code (the loop compacts once on it)', async () => {
    server = await startDeepSeekServer({ answers: [ok], contextWindow: 8_200 })
    const { provider } = testProvider(server.baseUrl, { thinking: 'disabled' })
    const { error } = await collectFailure(provider)
    expect(error).toMatchObject({ code: 'MODEL_CONTEXT_LENGTH' })
    expect(messageOf(error)).toMatch(/^deepseek rejected the request \(HTTP 400\): This model's maximum context length is 8200 tokens\./)
  })
})
