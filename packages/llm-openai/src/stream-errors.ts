/**
 * The failures of one streamed attempt that are not the SDK's own: a stream that made no
 * progress for too long (with what it sent meanwhile), the header timeout, DeepSeek's
 * `insufficient_system_resource`, a stream that ended without a finish reason, a chunk that is
 * not JSON and an error object sent inside the stream. `failure-classification.ts` sorts them.
 */

/** What an idle stream had sent since its last progress. */
export type IdleKind = 'nothing-after-headers' | 'keep-alive-only' | 'empty-chunks' | 'stalled'

/** An open stream made no progress for too long; `kind` says what it sent meanwhile. */
export class IdleStreamError extends Error {
  readonly kind: IdleKind
  constructor(kind: IdleKind, ms: number) {
    super(idleText(kind, ms))
    this.name = 'IdleStreamError'
    this.kind = kind
  }
}

function idleText(kind: IdleKind, ms: number): string {
  const limit = `${ms} ms (model.idleTimeoutMs)`
  switch (kind) {
    case 'nothing-after-headers':
      return `the server sent the response headers and then nothing for ${limit}`
    case 'keep-alive-only':
      // DeepSeek's `: keep-alive` comments say the request waits in a queue; they are not progress.
      return `the server sent only keep-alive comments for ${limit}`
    case 'empty-chunks':
      return `the server sent only empty chunks for ${limit}`
    case 'stalled':
      return `the stream stalled: no data for ${limit}`
    default: {
      const unreachable: never = kind
      return String(unreachable)
    }
  }
}

/** The whole model call (every attempt and backoff wait) took longer than `model.callTimeoutMs`. */
export class CallDeadlineError extends Error {
  constructor(ms: number) {
    super(`the model call took longer than ${ms} ms in all (model.callTimeoutMs)`)
    this.name = 'CallDeadlineError'
  }
}

/** Stands for the SDK's header timeout, so the message says which limit ran out and how to change it. */
export class ConnectTimeoutError extends Error {
  constructor(ms: number) {
    // No `cause`: the SDK's own "Request timed out" would only repeat this message.
    super(`no response from the server within ${ms} ms (connectTimeoutMs)`)
    this.name = 'ConnectTimeoutError'
  }
}

/** DeepSeek's `finish_reason: insufficient_system_resource`: the server gave up mid-answer (retryable). */
export class InsufficientResourceError extends Error {
  constructor() {
    super('the server stopped the answer: insufficient_system_resource (DeepSeek is overloaded)')
    this.name = 'InsufficientResourceError'
  }
}

/** A stream that ended without a `finish_reason`: the server hung up early but cleanly. */
export class IncompleteStreamError extends Error {
  constructor() {
    super('the stream ended before the response finished (no finish_reason)')
    this.name = 'IncompleteStreamError'
  }
}

/** Longest excerpt of a malformed chunk quoted in a message. */
const EXCERPT_CHARS = 80

/** A `data:` payload that is not JSON (or not an object). */
export class MalformedChunkError extends Error {
  constructor(data: string) {
    const flat = data.replace(/\s+/g, ' ').trim()
    const excerpt = flat.length <= EXCERPT_CHARS ? flat : `${flat.slice(0, EXCERPT_CHARS)}…`
    super(`malformed stream chunk (not a JSON object): ${JSON.stringify(excerpt)}`)
    this.name = 'MalformedChunkError'
  }
}

/** An `{"error": …}` object sent inside an open stream. */
export class StreamErrorObject extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'StreamErrorObject'
  }
}
