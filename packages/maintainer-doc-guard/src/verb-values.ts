/**
 * `key=value` arguments of the `/docs switches` and `/docs settings` verbs: booleans as
 * on/off/true/false/yes/no, numbers as integers, each checked against its schema so a typo is a
 * one-line error naming the key.
 */
import type { z } from 'zod'
import { GuardError } from './guard-error.ts'
import { LiveSettingsSchema, type LiveSettings } from './live-settings.ts'
import { SwitchesSchema, type SwitchValues } from './switches.ts'

const TRUE = new Set(['on', 'true', 'yes'])
const FALSE = new Set(['off', 'false', 'no'])

function valueOf(raw: string): boolean | number | string {
  const lower = raw.toLowerCase()
  if (TRUE.has(lower)) return true
  if (FALSE.has(lower)) return false
  return /^-?\d+$/u.test(raw) ? Number(raw) : raw
}

function assignments(shape: Readonly<Record<string, z.ZodType>>, pairs: readonly string[]): Record<string, unknown> {
  const patch: Record<string, unknown> = {}
  for (const pair of pairs) {
    const at = pair.indexOf('=')
    const key = at < 0 ? pair : pair.slice(0, at)
    const field = Object.hasOwn(shape, key) ? shape[key] : undefined
    if (field === undefined) throw new GuardError('DOCS_USAGE', `unknown key "${key}" (keys: ${Object.keys(shape).join(', ')})`)
    if (at < 0) throw new GuardError('DOCS_USAGE', `${key}: write ${key}=VALUE`)
    const raw = pair.slice(at + 1)
    const checked = field.safeParse(valueOf(raw))
    if (!checked.success) {
      const expected = field.safeParse(true).success ? 'expected on or off' : (checked.error.issues[0]?.message ?? 'invalid value')
      throw new GuardError('DOCS_BAD_VALUE', `${key}=${raw}: ${expected}`)
    }
    patch[key] = checked.data
  }
  return patch
}

/** The fields that are set (zod's partial output spells absent fields as optional-or-undefined). */
function setFields<T extends object>(value: { [K in keyof T]?: T[K] | undefined }): Partial<T> {
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- every undefined field is removed just before
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>
}

/** Parses switch assignments (`ledger=off`). */
export function parseSwitches(pairs: readonly string[]): Partial<SwitchValues> {
  return setFields<SwitchValues>(SwitchesSchema.partial().parse(assignments(SwitchesSchema.shape, pairs)))
}

/** Parses settings assignments (`nudgeAfterSteps=8`). */
export function parseSettings(pairs: readonly string[]): Partial<LiveSettings> {
  return setFields<LiveSettings>(LiveSettingsSchema.partial().parse(assignments(LiveSettingsSchema.shape, pairs)))
}
