/**
 * Cancellation plumbing for the provider: a per-attempt signal linked to the caller's (the SDK
 * never removes the abort listener it adds, so giving it the caller's long-lived signal would
 * pile up listeners across steps), and a backoff sleep that loses any race against an abort.
 */
import { createAbortError } from './errors.ts'
import type { Sleep } from './retry-policy.ts'

/** A child signal that aborts with its parent until disposed. */
export interface LinkedSignal extends Disposable {
  /** Signal to hand the SDK for one attempt. */
  readonly signal: AbortSignal
  /** Ends this attempt alone (the parent stays live), e.g. when the stream went idle. */
  abort(reason: Error): void
}

/** Links a fresh controller to `parent`; disposing aborts the child and unhooks it from the parent. */
export function linkSignal(parent: AbortSignal): LinkedSignal {
  const controller = new AbortController()
  const forward = (): void => controller.abort(parent.reason)
  if (parent.aborted) forward()
  else parent.addEventListener('abort', forward, { once: true })
  return {
    signal: controller.signal,
    abort: (reason) => controller.abort(reason),
    [Symbol.dispose]: () => {
      parent.removeEventListener('abort', forward)
      // Releases the connection if the attempt is still open; a no-op after a clean finish.
      controller.abort(new Error('attempt finished'))
    },
  }
}

/** Runs the (possibly injected) sleep but settles as soon as the signal aborts, whatever it does. */
export async function sleepUnlessAborted(sleep: Sleep, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) throw createAbortError(signal)
  let onAbort: (() => void) | undefined
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(createAbortError(signal))
    signal.addEventListener('abort', onAbort, { once: true })
  })
  const slept = sleep(ms, signal)
  // Swallows a late rejection of the sleep after the abort already won the race; nothing awaits it then.
  slept.catch(() => undefined)
  try {
    await Promise.race([slept, aborted])
  } catch (error) {
    // Swallows the sleep's own rejection when it was caused by the abort: report the AbortError.
    if (signal.aborted) throw createAbortError(signal)
    throw error
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort)
  }
}
