/**
 * Pure policy pieces: backoff delays, `retry-after` parsing, failure classification and the
 * model capability table.
 */
import * as sdk from 'openai'
import { APIConnectionError, APIError } from 'openai'
import { describe, expect, it } from 'vitest'
import { classifyFailure, retryAfterFromHeaders, toModelError, type FailureContext } from '../src/failure-classification.ts'

const context: FailureContext = { provider: 'deepseek', baseUrl: 'http://127.0.0.1:1/v1', keyHint: 'DEEPSEEK_API_KEY' }
import { contextWindowFor, DEFAULT_CONTEXT_WINDOW, DEFAULT_DEEPSEEK_MODEL, modelCapabilitiesFor, reasoningEchoFor, retiredModelWarning } from '../src/index.ts'
import { BASE_DELAY_MS, MAX_BACKOFF_MS, MAX_RETRY_AFTER_MS, retryDelayMs } from '../src/retry-policy.ts'
import { MalformedChunkError } from '../src/stream-errors.ts'

describe('retryDelayMs', () => {
  it('doubles from the base delay, capped, with at most 25% jitter taken off', () => {
    expect(retryDelayMs(0, undefined, () => 0)).toBe(BASE_DELAY_MS)
    expect(retryDelayMs(0, undefined, () => 1)).toBe(BASE_DELAY_MS * 0.75)
    expect(retryDelayMs(3, undefined, () => 0)).toBe(BASE_DELAY_MS * 8)
    expect(retryDelayMs(20, undefined, () => 0)).toBe(MAX_BACKOFF_MS)
  })

  it('honours a server-provided wait exactly, capped', () => {
    expect(retryDelayMs(2, 0, () => 0.5)).toBe(0)
    expect(retryDelayMs(0, 3_000, () => 0.5)).toBe(3_000)
    expect(retryDelayMs(0, 3_600_000, () => 0.5)).toBe(MAX_RETRY_AFTER_MS)
  })
})

describe('retryAfterFromHeaders', () => {
  it('reads retry-after-ms, retry-after seconds and HTTP dates; ignores junk', () => {
    expect(retryAfterFromHeaders(new Headers({ 'retry-after-ms': '250' }))).toBe(250)
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '2' }))).toBe(2_000)
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': '0' }))).toBe(0)
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString()
    const fromDate = retryAfterFromHeaders(new Headers({ 'retry-after': inTenSeconds })) ?? -1
    expect(fromDate).toBeGreaterThan(8_000)
    expect(fromDate).toBeLessThanOrEqual(10_000)
    expect(retryAfterFromHeaders(new Headers({ 'retry-after': 'soon' }))).toBeUndefined()
    expect(retryAfterFromHeaders(new Headers())).toBeUndefined()
    expect(retryAfterFromHeaders(undefined)).toBeUndefined()
  })
})

/** An SDK error for an HTTP status, as the SDK builds it from a response. */
const http = (status: number): APIError => APIError.generate(status, { error: { message: `status ${status}` } }, undefined, new Headers())

/** Code and retryability for a status. */
function verdict(status: number): [string, boolean] {
  const failure = classifyFailure(http(status), sdk)
  return [failure.code, failure.retryable]
}

describe('classifyFailure', () => {
  it('retries 408, 429 and 5xx; not 400, 401, 403, 404 or 422', () => {
    expect(verdict(408)).toEqual(['MODEL_NETWORK', true])
    expect(verdict(429)).toEqual(['MODEL_RATE_LIMIT', true])
    expect(verdict(500)).toEqual(['MODEL_SERVER', true])
    expect(verdict(503)).toEqual(['MODEL_SERVER', true])
    expect(verdict(400)).toEqual(['MODEL_BAD_RESPONSE', false])
    expect(verdict(401)).toEqual(['MODEL_AUTH', false])
    expect(verdict(403)).toEqual(['MODEL_AUTH', false])
    expect(verdict(404)).toEqual(['MODEL_BAD_RESPONSE', false])
    expect(verdict(422)).toEqual(['MODEL_BAD_RESPONSE', false])
  })

  it('treats connection errors and unknown transport errors as retryable network failures', () => {
    expect(classifyFailure(new APIConnectionError({ message: 'Connection error.' }), sdk)).toMatchObject({ code: 'MODEL_NETWORK', retryable: true })
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })
    expect(classifyFailure(new TypeError('terminated', { cause: reset }), sdk)).toMatchObject({
      code: 'MODEL_NETWORK',
      retryable: true,
      detail: 'terminated: read ECONNRESET [ECONNRESET]',
    })
  })

  it('does not retry a host name that does not resolve (ENOTFOUND), and names the host', () => {
    const lookup = Object.assign(new Error('getaddrinfo ENOTFOUND api.deepseek.invalid'), { code: 'ENOTFOUND', hostname: 'api.deepseek.invalid' })
    const error = new APIConnectionError({ message: 'Connection error.', cause: new TypeError('fetch failed', { cause: lookup }) })
    expect(classifyFailure(error, sdk)).toEqual({
      code: 'MODEL_NETWORK',
      retryable: false,
      detail: 'the host name api.deepseek.invalid does not resolve (DNS lookup failed: ENOTFOUND); check the base URL',
    })
  })

  it('keeps EAI_AGAIN, ECONNRESET, ETIMEDOUT and ECONNREFUSED retryable', () => {
    for (const code of ['EAI_AGAIN', 'ECONNRESET', 'ETIMEDOUT', 'ECONNREFUSED']) {
      const cause = new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ${code}`), { code }) })
      expect(classifyFailure(new APIConnectionError({ message: 'Connection error.', cause }), sdk)).toMatchObject({ code: 'MODEL_NETWORK', retryable: true })
    }
  })

  it('does not retry a malformed chunk, and names it as malformed, not as a refusal', () => {
    const failure = classifyFailure(new MalformedChunkError('{oops'), sdk)
    expect(failure).toMatchObject({ code: 'MODEL_BAD_RESPONSE', retryable: false, malformed: true })
    expect(toModelError(failure, context, 0, undefined).message).toBe('deepseek sent a malformed stream chunk: malformed stream chunk (not a JSON object): "{oops"')
  })

  it('F16: a server that answered is never "cannot reach"', () => {
    const timedOut = classifyFailure(new APIError(408, { message: 'Request Timeout' }, undefined, new Headers()), sdk)
    expect(toModelError(timedOut, context, 1, undefined).message).toBe('deepseek answered with an error (HTTP 408) after 1 retry: Request Timeout')
    const refused = classifyFailure(new APIConnectionError({ message: 'Connection error.', cause: new Error('connect ECONNREFUSED') }), sdk)
    expect(toModelError(refused, context, 0, undefined).message).toMatch(/^cannot reach http:\/\/127\.0\.0\.1:1\/v1: /)
  })
})

describe('model capabilities', () => {
  it('knows the DeepSeek V4 models (1M context, 384K output, thinking on) and defaults the rest', () => {
    for (const name of ['deepseek-v4-flash', 'deepseek-flash', 'deepseek-v4-pro']) {
      expect(modelCapabilitiesFor(name)).toEqual({ contextWindow: 1_048_576, maxOutputTokens: 393_216, thinksByDefault: true })
      expect(contextWindowFor(name)).toBe(1_048_576)
    }
    expect(DEFAULT_DEEPSEEK_MODEL).toBe('deepseek-v4-flash')
    expect(contextWindowFor('some-local-model')).toBe(DEFAULT_CONTEXT_WINDOW)
    expect(contextWindowFor('toString')).toBe(DEFAULT_CONTEXT_WINDOW)
  })

  it('names the replacement of the retired DeepSeek names, and of no other', () => {
    expect(retiredModelWarning('deepseek-chat')).toBe(
      'deepseek-chat was retired by DeepSeek on 2026-07-24; use --model deepseek:deepseek-v4-flash (model.spec) with model.thinking: disabled instead (the request is sent as written)',
    )
    expect(retiredModelWarning('deepseek-reasoner')).toBe(
      'deepseek-reasoner was retired by DeepSeek on 2026-07-24; use --model deepseek:deepseek-v4-flash (model.spec) with model.thinking: enabled instead (the request is sent as written)',
    )
    expect(retiredModelWarning('deepseek-v4-flash')).toBeUndefined()
  })

  it('asks DeepSeek in thinking mode, and only DeepSeek, for the reasoning of every message of a request with tools', () => {
    expect(reasoningEchoFor('deepseek')).toBe('with-tools')
    expect(reasoningEchoFor('deepseek', 'enabled')).toBe('with-tools')
    expect(reasoningEchoFor('deepseek', 'disabled')).toBeUndefined()
    expect(reasoningEchoFor('openai')).toBeUndefined()
    expect(reasoningEchoFor('openai', 'enabled')).toBeUndefined()
  })
})
