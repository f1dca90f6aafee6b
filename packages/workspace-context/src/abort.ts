/**
 * Cancellation helpers: every catch in discovery first lets cancellation through, so an abort
 * is never misread as "unavailable" or "absent".
 */
import { stringProperty } from './guards.ts'

/** Rethrows when `signal` is aborted or `error` is an abort of the fs port or of the platform. */
export function rethrowIfAborted(error: unknown, signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw signal.reason ?? error
  if (stringProperty(error, 'code') === 'FS_ABORTED' || stringProperty(error, 'name') === 'AbortError') throw error
}

/** Throws the abort reason when `signal` is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw signal.reason ?? new Error('aborted')
}

/** The stable `code` of an fs port error, if any. */
export const fsErrorCode = (error: unknown): string | undefined => stringProperty(error, 'code')
