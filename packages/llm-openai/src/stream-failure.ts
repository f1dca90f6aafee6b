/**
 * Classification of the provider's own stream failures (`stream-errors.ts`): which may be retried
 * and with what code. Headers followed by nothing at all are not retried: the server accepted
 * the request and never started, and every further attempt would cost another full idle limit
 * (issue 22 F9). A stall, keep-alives only, empty chunks only, a stream ended early and
 * `insufficient_system_resource` are retried (research notes §3.4).
 */
import type { Failure } from './failure-classification.ts'
import { CallDeadlineError, IdleStreamError, IncompleteStreamError, InsufficientResourceError, MalformedChunkError, StreamErrorObject } from './stream-errors.ts'

/** The failure for one of our own stream errors; undefined for anything else. */
export function classifyStreamError(error: unknown): Failure | undefined {
  if (error instanceof CallDeadlineError) return { code: 'MODEL_NETWORK', retryable: false, detail: error.message, deadline: true }
  if (error instanceof IdleStreamError) return { code: 'MODEL_NETWORK', retryable: error.kind !== 'nothing-after-headers', detail: error.message, answered: true }
  if (error instanceof IncompleteStreamError) return { code: 'MODEL_NETWORK', retryable: true, detail: error.message, answered: true }
  if (error instanceof InsufficientResourceError) return { code: 'MODEL_SERVER', retryable: true, detail: error.message, answered: true }
  if (error instanceof MalformedChunkError) return { code: 'MODEL_BAD_RESPONSE', retryable: false, detail: error.message, answered: true, malformed: true }
  // Not known to be transient; DeepSeek documents none of these.
  if (error instanceof StreamErrorObject) return { code: 'MODEL_SERVER', retryable: false, detail: `an error inside the stream: ${error.message}`, answered: true }
  return undefined
}
