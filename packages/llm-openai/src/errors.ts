/**
 * Typed provider errors: `ModelError` carries a stable `code` from the contracts and a one-line
 * message meant for a person; `createAbortError` builds the `AbortError` a cancelled stream
 * rejects with. Classifying SDK failures into codes lives in `retry-policy.ts`.
 */
import type { ModelErrorCode, ModelErrorShape } from '@dsh/contracts'

/** Longest message we keep; server error bodies can be whole HTML pages. */
const MAX_MESSAGE_CHARS = 400

/** A provider failure with a stable code and a one-line message. */
export class ModelError extends Error implements ModelErrorShape {
  /** Stable code; callers branch on this, never on the message. */
  readonly code: ModelErrorCode

  constructor(code: ModelErrorCode, message: string, options?: { cause?: unknown }) {
    super(oneLine(message), options)
    this.name = 'ModelError'
    this.code = code
  }
}

/** True for a {@link ModelError} (or any error carrying a known model error code). */
export function isModelError(value: unknown): value is ModelErrorShape {
  if (value instanceof ModelError) return true
  if (!(value instanceof Error)) return false
  return 'code' in value && typeof value.code === 'string' && MODEL_ERROR_CODES.has(value.code)
}

const MODEL_ERROR_CODES: ReadonlySet<string> = new Set<ModelErrorCode>([
  'MODEL_AUTH',
  'MODEL_RATE_LIMIT',
  'MODEL_SERVER',
  'MODEL_NETWORK',
  'MODEL_BAD_RESPONSE',
  'MODEL_SCRIPT_EXHAUSTED',
  'MODEL_CONFIG',
  'MODEL_CONTEXT_LENGTH',
  'MODEL_EMPTY_ANSWER',
])

/** The error a stream rejects with when its signal aborts; `name` is `'AbortError'`. */
export function createAbortError(signal: AbortSignal): Error {
  const error = new Error('model request aborted', { cause: signal.reason })
  error.name = 'AbortError'
  return error
}

/** Collapses whitespace and truncates, so a message always fits one log line. */
export function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= MAX_MESSAGE_CHARS ? flat : `${flat.slice(0, MAX_MESSAGE_CHARS - 1)}…`
}
