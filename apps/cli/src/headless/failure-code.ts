/**
 * The `error.code` of a failed run: a turn's end reason, a typed error's own stable code
 * (`MODEL_RATE_LIMIT`, `MODEL_AUTH`, … from the provider after its retries), `USAGE` for bad input
 * (exit 2: a bad config file, a bad option value), else `INTERNAL`.
 */
import type { TurnEndReason } from '@dsh/contracts'
import { CliError } from '../cli-error.ts'

/** Codes of turns that ended without an exception. */
export const turnEndCodes: Readonly<Partial<Record<TurnEndReason, string>>> = { 'max-steps': 'MAX_STEPS', cancelled: 'CANCELLED', blocked: 'BLOCKED' }

/** The code and exit code of a thrown failure. */
export function failureOf(error: unknown): { readonly code: string; readonly message: string; readonly exitCode: number } {
  const message = error instanceof Error ? error.message : String(error)
  if (error instanceof CliError) return { code: error.exitCode === 2 ? 'USAGE' : 'FAILED', message, exitCode: error.exitCode }
  const code = typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' && /^[A-Z][A-Z0-9_]*$/.test(error.code) ? error.code : 'INTERNAL'
  return { code, message, exitCode: 1 }
}
