/**
 * Typed errors of the operator surface, with stable codes the CLI and the web panel branch on.
 * Messages are one line that says what and where.
 */

/** Stable codes. */
export type GuardErrorCode =
  | 'DOCS_UNKNOWN_SESSION'
  | 'DOCS_UNKNOWN_DOCUMENT'
  | 'DOCS_UNSAFE_PATH'
  | 'DOCS_UNUSABLE_DOCUMENT'
  | 'DOCS_BAD_TEMPLATE_NAME'
  | 'DOCS_UNKNOWN_TEMPLATE'
  | 'DOCS_EMPTY_DOCUMENT'
  | 'DOCS_SWEEP_UNAVAILABLE'
  | 'DOCS_NO_SETTINGS'
  | 'DOCS_BAD_VALUE'
  | 'DOCS_USAGE'
  | 'DOCS_TOO_LARGE'
  | 'DOCS_CHANGED'
  | 'DOCS_BUSY'
  | 'DOCS_WRITE_FAILED'

/** An operator-surface failure. */
export class GuardError extends Error {
  readonly code: GuardErrorCode

  constructor(code: GuardErrorCode, message: string) {
    super(message)
    this.name = 'GuardError'
    this.code = code
  }
}

/** True for a {@link GuardError}. */
export function isGuardError(error: unknown): error is GuardError {
  return error instanceof GuardError
}
