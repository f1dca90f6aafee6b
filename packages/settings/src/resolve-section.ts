/**
 * Computes a namespace's effective value: the schema-parsed merge `{ ...base, ...section }`, field
 * by field, or a one-line description of the first problem (`ns.key: expected number, received
 * string`).
 */
import type { ZodType, z } from 'zod'
import { deepFreeze } from './deep-freeze.ts'

/** The effective value, or why the section is invalid. */
export type Resolution<T> =
  | {
      /** The merge validated. */
      readonly ok: true
      /** Parsed, frozen value. */
      readonly value: T
    }
  | {
      /** The merge did not validate. */
      readonly ok: false
      /** One-line problem naming `namespace.key`, without the file name. */
      readonly problem: string
    }

/** Merges `section` over `base` and validates the result with `schema`. */
export function resolveSection<S extends ZodType>(
  schema: S,
  namespace: string,
  base: Partial<z.infer<S>> | undefined,
  section: unknown,
): Resolution<z.infer<S>> {
  if (section !== undefined && section !== null && !isPlainRecord(section)) {
    return { ok: false, problem: `${namespace}: expected a mapping of fields, received ${kindOf(section)}` }
  }
  const result = schema.safeParse({ ...base, ...section })
  if (result.success) return { ok: true, value: deepFreeze(result.data) }
  const [first, ...rest] = result.error.issues
  const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})` : ''
  const where = [namespace, ...(first?.path ?? []).map(String)].join('.')
  const message = (first?.message ?? 'invalid value').replace(/^Invalid (?:input|option): /, '')
  return { ok: false, problem: `${where}: ${message}${more}` }
}

/** True for a non-null, non-array object (a YAML mapping after `toJS`). */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'a list'
  return typeof value
}
