/**
 * Typed errors of the local fs port: `FsError` (stable `code`, display `path`, one-line message)
 * and the mapping from Node system errors to those codes.
 */
import type { FsErrorCode, FsErrorShape } from '@dsh/contracts'

/** Keeps a message on one line even when a path contains newlines or other control characters. */
function oneLine(text: string): string {
  let out = ''
  for (const char of text) {
    const code = char.charCodeAt(0)
    out += code < 0x20 || code === 0x7f ? `\\x${code.toString(16).padStart(2, '0')}` : char
  }
  return out
}

/** An expected fs failure; branch on `code`, never on `message`. */
export class FsError extends Error implements FsErrorShape {
  override readonly name = 'FsError'
  readonly code: FsErrorCode
  readonly path: string

  /** `what` says what went wrong; the message is `<what>: <path>`. */
  constructor(code: FsErrorCode, path: string, what: string, options?: { readonly cause?: unknown }) {
    super(`${oneLine(what)}: ${oneLine(path)}`, options)
    this.code = code
    this.path = path
  }
}

/** True for errors thrown by this package. */
export function isFsError(error: unknown): error is FsError {
  return error instanceof FsError
}

/** The `code` of a Node system error (`ENOENT`, …), if any. */
export function systemErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined
  return typeof error.code === 'string' ? error.code : undefined
}

/** True when a system error means "nothing exists at that path". */
export function isMissingError(error: unknown): boolean {
  const code = systemErrorCode(error)
  return code === 'ENOENT' || code === 'ENOTDIR'
}

/** Converts a Node error from `action` on `path` into an `FsError`; FsErrors pass through unchanged. */
export function toFsError(error: unknown, path: string, action: string): FsError {
  if (error instanceof FsError) return error
  const code = systemErrorCode(error)
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new FsError('FS_NOT_FOUND', path, `${action} failed: no such file or directory`, { cause: error })
    case 'EISDIR':
      return new FsError('FS_NOT_A_FILE', path, `${action} failed: is a directory`, { cause: error })
    case 'ENXIO':
      return new FsError('FS_SPECIAL_FILE', path, `${action} failed: not a regular file (socket or device)`, {
        cause: error,
      })
    case 'ABORT_ERR':
      return abortedError(path)
    default:
      return new FsError('FS_IO', path, `${action} failed (${code ?? String(error)})`, { cause: error })
  }
}

/** The error every method rejects with once its signal is aborted. */
export function abortedError(path: string): FsError {
  return new FsError('FS_ABORTED', path, 'operation aborted')
}

/** Throws `FS_ABORTED` when `signal` is already aborted. */
export function throwIfAborted(signal: AbortSignal | undefined, path: string): void {
  if (signal?.aborted === true) throw abortedError(path)
}
