/**
 * Sorts whatever the SDK or the transport threw into a model error code, whether it may be
 * retried, and the server's own words; then renders the final one-line `ModelError` message.
 * Abort is not handled here: the provider checks its signal before asking.
 */
import type { APIError } from 'openai'
import type { ModelErrorCode } from '@dsh/contracts'
import type { OpenAiSdk } from './sdk-loader.ts'
import { summarizeBody } from './body-summary.ts'
import { ModelError, oneLine } from './errors.ts'
import { classifyStreamError } from './stream-failure.ts'

/** A classified failure. */
export interface Failure {
  /** Code to report if this failure ends the stream. */
  readonly code: ModelErrorCode
  /**
   * True for 408/429/5xx and transport failures (refused or reset connections, timeouts, a
   * resolver that could not answer): worth another attempt if nothing was yielded. Failures that
   * the same request meets every time are not: a host name that does not exist (ENOTFOUND), a
   * port Node's fetch refuses (`bad port`), a TLS certificate that does not verify, an https URL
   * pointed at a plain-http server.
   */
  readonly retryable: boolean
  /** HTTP status, when the server answered. */
  readonly status?: number
  /** Server message or transport cause, one line. */
  readonly detail: string
  /** Server-requested wait (`retry-after-ms` / `retry-after`), in ms. */
  readonly retryAfterMs?: number
  /** The server answered (a status, or a stream that broke off): the message never says "cannot reach". */
  readonly answered?: boolean
  /** A chunk that is not JSON: named as malformed, not as a refusal. */
  readonly malformed?: boolean
  /** The call's overall deadline ran out (`model.callTimeoutMs`): dsh stopped it, not the server. */
  readonly deadline?: boolean
}

/** What the provider knows about the attempt beyond the error. */
export interface AttemptFacts {
  /** The response headers had arrived (the failure came while reading the body). */
  readonly answered: boolean
}

/** Who failed, for messages. */
export interface FailureContext {
  /** Provider id (`deepseek`, `openai`). */
  readonly provider: string
  /** Base URL in use. */
  readonly baseUrl: string
  /** How to name the key in hints (its variable, and where it is configured). */
  readonly keyHint: string
  /** The proxy the requests go through (credentials masked), when one does. */
  readonly proxy?: string | undefined
}

/** The SDK's error classes, from the loaded SDK (`sdk-loader.ts`). */
export type SdkErrors = Pick<OpenAiSdk, 'APIConnectionError' | 'APIError'>

/** Classifies an error thrown while opening or reading a stream through the SDK whose error classes are `sdk`. */
export function classifyFailure(error: unknown, sdk: SdkErrors, facts: AttemptFacts = { answered: false }): Failure {
  const failure = classifyError(error, sdk)
  return facts.answered || failure.status !== undefined ? { ...failure, answered: true } : failure
}

function classifyError(error: unknown, sdk: SdkErrors): Failure {
  const own = classifyStreamError(error)
  if (own !== undefined) return own
  const unresolved = unresolvedHost(error)
  if (unresolved !== undefined) {
    // The name does not exist (a mistyped base URL): asking again gives the same answer, so no
    // retries. EAI_AGAIN (the resolver could not answer now) stays retryable below.
    const host = unresolved === '' ? 'the host name' : `the host name ${unresolved}`
    return { code: 'MODEL_NETWORK', retryable: false, detail: `${host} does not resolve (DNS lookup failed: ENOTFOUND); check the base URL` }
  }
  const permanent = permanentTransportFailure(error)
  if (permanent !== undefined) return { code: 'MODEL_NETWORK', retryable: false, detail: permanent }
  if (error instanceof sdk.APIConnectionError) {
    return { code: 'MODEL_NETWORK', retryable: true, detail: describeCause(error) }
  }
  if (error instanceof sdk.APIError) {
    const status = typeof error.status === 'number' ? error.status : undefined
    const detail = serverMessage(error)
    // No status: an `error` object sent inside the event stream. Not known to be transient.
    if (status === undefined) return { code: 'MODEL_SERVER', retryable: false, detail }
    const retryAfterMs = retryAfterFromHeaders(error.headers)
    const wait = retryAfterMs === undefined ? {} : { retryAfterMs }
    if (status === 401 || status === 403) return { code: 'MODEL_AUTH', retryable: false, status, detail }
    if (status === 429) return { code: 'MODEL_RATE_LIMIT', retryable: true, status, detail, ...wait }
    if (status === 408) return { code: 'MODEL_NETWORK', retryable: true, status, detail, ...wait }
    if (status >= 500) return { code: 'MODEL_SERVER', retryable: true, status, detail, ...wait }
    if (status === 400 && isContextLengthMessage(detail)) return { code: 'MODEL_CONTEXT_LENGTH', retryable: false, status, detail }
    return { code: 'MODEL_BAD_RESPONSE', retryable: false, status, detail }
  }
  // Anything else thrown by fetch or the body reader (undici `terminated`, ECONNRESET, …).
  return { code: 'MODEL_NETWORK', retryable: true, detail: describeCause(error) }
}

/** Builds the final error for a failure; `retries` is how many retries were spent on it. */
export function toModelError(failure: Failure, context: FailureContext, retries: number, cause: unknown, facts: { readonly afterOutput?: boolean } = {}): ModelError {
  const http = failure.status === undefined ? '' : ` (HTTP ${failure.status})`
  const after = retries > 0 ? ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : ''
  const { provider, baseUrl, keyHint } = context
  const via = context.proxy === undefined ? '' : ` through the proxy ${context.proxy}`
  const text = ((): string => {
    if (failure.deadline === true) return `${provider} call stopped${after}: ${failure.detail}`
    if (failure.malformed === true) return `${provider} sent a malformed stream chunk${after}: ${failure.detail}`
    if (failure.code === 'MODEL_NETWORK' && failure.status !== undefined) return `${provider} answered with an error${http}${after}: ${failure.detail}`
    if (failure.code === 'MODEL_NETWORK' && failure.answered === true) {
      const started = facts.afterOutput === true ? ' after output had started' : ''
      return `${provider} response broke off${started}${after}: ${failure.detail}`
    }
    switch (failure.code) {
      case 'MODEL_AUTH':
        return `${provider} rejected the API key${http}: ${failure.detail}; check ${keyHint}`
      case 'MODEL_RATE_LIMIT':
        return `${provider} kept rate-limiting${http}${after}: ${failure.detail}`
      case 'MODEL_SERVER':
        return `${provider} server error${http}${after}: ${failure.detail}`
      case 'MODEL_NETWORK':
        return `cannot reach ${baseUrl}${via}${http}${after}: ${failure.detail}`
      default:
        // 402 is DeepSeek's "Insufficient Balance": another attempt cannot help, money can.
        if (failure.status === 402) return `${provider} refused the request${http}: ${failure.detail}; top up the account balance (for DeepSeek: https://platform.deepseek.com/top_up), then run again`
        return `${provider} rejected the request${http}: ${failure.detail}`
    }
  })()
  return new ModelError(failure.code, text, { cause })
}


/** Parses `retry-after-ms`, then `retry-after` (seconds or an HTTP date), into milliseconds. */
export function retryAfterFromHeaders(headers: Headers | undefined): number | undefined {
  const millis = headers?.get('retry-after-ms')
  if (millis !== null && millis !== undefined) {
    const value = Number.parseFloat(millis)
    if (Number.isFinite(value) && value >= 0) return value
  }
  const raw = headers?.get('retry-after')
  if (raw === null || raw === undefined || raw.trim() === '') return undefined
  const seconds = Number(raw.trim())
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined
  const date = Date.parse(raw)
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now())
}

function serverMessage(error: APIError): string {
  const body: unknown = error.error
  if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string' && body.message.trim() !== '') {
    return summarizeBody(body.message)
  }
  // The SDK prefixes the status ("400 …"); drop it, the caller prints the status itself.
  return summarizeBody(error.message.replace(/^\d{3}\s+/, '')) || 'no error message from the server'
}

/** DeepSeek's (and OpenAI's) wording of a request over the context window (research notes §3.5). */
export function isContextLengthMessage(detail: string): boolean {
  return /maximum context length|context[_ ]length[_ ]exceeded|reduce the length of the messages/i.test(detail)
}

/**
 * The host name of a DNS `ENOTFOUND` anywhere in the cause chain ('' when the error does not
 * name it), or undefined when the failure is something else.
 */
function unresolvedHost(error: unknown): string | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 4 && current instanceof Error; depth += 1) {
    if ('code' in current && current.code === 'ENOTFOUND') return 'hostname' in current && typeof current.hostname === 'string' ? current.hostname : ''
    current = current.cause
  }
  return undefined
}

/** TLS failures that another attempt cannot fix (the certificate or the protocol is wrong). */
const PERMANENT_TLS_CODES: ReadonlySet<string> = new Set([
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
])

/**
 * The reason a transport failure will repeat on every attempt, found anywhere in the cause
 * chain, or undefined when another attempt may succeed.
 */
function permanentTransportFailure(error: unknown): string | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    // undici's fetch refuses ports on the Fetch standard's block list before connecting.
    if (current.message === 'bad port') return 'Node refuses to connect to this port ("bad port": it is on the fetch block list, like 6000 or 6667); serve the model on another port'
    const code = 'code' in current && typeof current.code === 'string' ? current.code : undefined
    if (code === 'ERR_SSL_WRONG_VERSION_NUMBER') return 'the server does not speak TLS (ERR_SSL_WRONG_VERSION_NUMBER); use http:// in the base URL for a plain-http server'
    if (code !== undefined && PERMANENT_TLS_CODES.has(code)) return `the server's TLS certificate was refused (${code}); fix the certificate or the base URL`
    current = current.cause
  }
  return undefined
}

function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return oneLine(String(error))
  const parts = [error.message]
  let cause: unknown = error.cause
  for (let depth = 0; depth < 3 && cause instanceof Error; depth += 1) {
    parts.push('code' in cause && typeof cause.code === 'string' ? `${cause.message} [${cause.code}]` : cause.message)
    cause = cause.cause
  }
  return oneLine(parts.map((part) => part.trim().replace(/\.$/, '')).filter((part) => part !== '').join(': '))
}
