/**
 * Errors of the scripted provider, with the model port's stable codes.
 */
import type { ModelErrorCode } from '@dsh/contracts'

/** A script problem (bad file, or the script ran out). */
export class ScriptError extends Error {
  readonly code: ModelErrorCode

  constructor(message: string, code: ModelErrorCode = 'MODEL_CONFIG') {
    super(message)
    this.name = 'ScriptError'
    this.code = code
  }
}
