/**
 * Retry policy: how long to wait before retry number n (exponential backoff with jitter, or the
 * server's `retry-after`, both capped) and an abortable default sleep. Whether a failure may be
 * retried at all is decided by the provider (only before any event was yielded) together with
 * `classifyFailure`.
 */
import { createAbortError } from './errors.ts'

/** Retries per stream call when the caller does not say. */
export const DEFAULT_MAX_RETRIES = 4
/** First backoff step; doubles per retry. */
export const BASE_DELAY_MS = 500
/** Longest computed backoff. */
export const MAX_BACKOFF_MS = 8_000
/** Longest wait we grant a server's `retry-after`. */
export const MAX_RETRY_AFTER_MS = 60_000

/** Sleeps `ms`, rejecting with an `AbortError` as soon as `signal` aborts. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>

/**
 * Delay before retry `retryIndex` (0 for the first retry). A server-provided wait wins (capped);
 * otherwise `BASE_DELAY_MS · 2^n` capped, scaled by a random factor in (0.75, 1] so that clients
 * failing together do not retry in lockstep.
 */
export function retryDelayMs(retryIndex: number, retryAfterMs: number | undefined, random: () => number = Math.random): number {
  if (retryAfterMs !== undefined) return Math.round(Math.min(Math.max(0, retryAfterMs), MAX_RETRY_AFTER_MS))
  const exponential = Math.min(BASE_DELAY_MS * 2 ** retryIndex, MAX_BACKOFF_MS)
  return Math.round(exponential * (1 - 0.25 * random()))
}

/** Default {@link Sleep}: a timer cancelled by the signal. */
export const abortableSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(createAbortError(signal))
      return
    }
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(createAbortError(signal))
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal.addEventListener('abort', onAbort, { once: true })
  })
