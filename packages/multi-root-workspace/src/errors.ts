/**
 * Typed failures of the roots registry and service: a stable `code` (the contract's
 * `WorkspaceRootErrorCode`) and a one-line message that says what and where. Front ends print
 * `<code>: <message>`; validation and reference failures are bad input, the others are not.
 */
import type { WorkspaceRootErrorCode, WorkspaceRootsErrorShape } from '@dsh/contracts'

/** A workspace-root failure with a stable code. */
export class RootsError extends Error implements WorkspaceRootsErrorShape {
  readonly code: WorkspaceRootErrorCode

  constructor(code: WorkspaceRootErrorCode, message: string) {
    super(message)
    this.name = 'RootsError'
    this.code = code
  }
}

/** Narrows any value to a {@link RootsError}. */
export const isRootsError = (error: unknown): error is RootsError => error instanceof RootsError

/** Codes caused by what the person typed (exit code 2 on the command line). */
const BAD_INPUT: ReadonlySet<WorkspaceRootErrorCode> = new Set<WorkspaceRootErrorCode>([
  'not-absolute',
  'missing',
  'not-a-directory',
  'equals-primary',
  'primary-overlap',
  'duplicate',
  'nested',
  'invalid-alias',
  'not-found',
  'invalid-ref',
])

/** True when `code` reports bad input rather than a failure of the registry itself. */
export const isBadInput = (code: WorkspaceRootErrorCode): boolean => BAD_INPUT.has(code)
