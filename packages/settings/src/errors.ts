/**
 * The typed error of the settings package: every failure a caller can act on carries a stable
 * `code` (see `SettingsErrorCode`).
 */
import type { SettingsErrorCode } from './types.ts'

/** A settings failure with a stable machine-readable code. */
export class SettingsError extends Error {
  override readonly name = 'SettingsError'

  constructor(
    /** Stable code; safe to branch on. */
    readonly code: SettingsErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

/** True when `error` is a `SettingsError`, optionally with the given code. */
export function isSettingsError(error: unknown, code?: SettingsErrorCode): error is SettingsError {
  return error instanceof SettingsError && (code === undefined || error.code === code)
}
