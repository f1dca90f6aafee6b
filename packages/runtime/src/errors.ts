/**
 * Typed kernel errors with stable codes. Branch on `code`, never on the message.
 */

/** Stable codes of kernel errors. */
export type DshErrorCode =
  | 'SESSION_NOT_FOUND'
  | 'SESSION_AMBIGUOUS'
  | 'SESSION_MALFORMED'
  | 'SESSION_VERSION'
  | 'SESSION_BUSY'
  | 'SESSION_READ'
  | 'SESSION_WRITE'
  | 'SESSION_TOO_LARGE'
  | 'PROMPT_UNKNOWN_VARIABLE'
  | 'TOOL_DUPLICATE'
  | 'AGENT_BUSY'
  | 'CONFIG_INVALID'
  | 'USAGE'
  | 'DIRECTORY_CREATE_FAILED'
  | 'LOCK_BUSY'
  | 'LOCK_FAILED'

const marker = Symbol.for('dsh.error')

/** An error with a stable code and a one-line message. */
export class DshError extends Error {
  /** Stable code. */
  readonly code: DshErrorCode
  readonly [marker] = true

  constructor(code: DshErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'DshError'
    this.code = code
  }
}

/** True for any {@link DshError}, across module copies. */
export function isDshError(value: unknown): value is DshError {
  return typeof value === 'object' && value !== null && marker in value && value[marker] === true
}

/** True for the abort errors produced by `AbortSignal`s and providers. */
export function isAbortError(value: unknown): boolean {
  return value instanceof Error && (value.name === 'AbortError' || ('code' in value && value.code === 'FS_ABORTED'))
}

/** The message of a thrown value, whatever was thrown. */
export function errorMessage(value: unknown): string {
  return value instanceof Error ? value.message : String(value)
}

/** The errno code of a thrown value (`ENOENT`, …), when it has one. */
export function errnoCode(value: unknown): string | undefined {
  return value instanceof Error && 'code' in value && typeof value.code === 'string' ? value.code : undefined
}

/** A DOM-style AbortError for aborted operations. */
export function abortError(reason?: unknown): Error {
  const error = new Error(typeof reason === 'string' ? reason : 'The operation was aborted')
  error.name = 'AbortError'
  return error
}
