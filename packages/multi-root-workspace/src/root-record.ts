/**
 * Registry records: `{ id, path, recordedPath, alias?, addedAt }`, parsed from the store without
 * trusting it. A record that is malformed (a missing canonical path, a wrong type, a relative path)
 * or whose id another record shares is kept as an `invalid` entry with the reason, and written back
 * exactly as it was read: it is never repaired or deleted behind the person's back.
 */
import { isAbsolute } from 'node:path'
import { RootsError } from './errors.ts'

/** Longest alias accepted. */
export const MAX_ALIAS_LENGTH = 120

/** A well-formed record. */
export interface RootRecord {
  /** Random id. */
  readonly id: string
  /** Absolute path as added (links not resolved). */
  readonly path: string
  /** Canonical path when added (or last re-added). */
  readonly recordedPath: string
  /** Optional short name. */
  readonly alias?: string
  /** ISO timestamp. */
  readonly addedAt: string
}

/** One stored entry: a valid record, or a raw value kept as it is with the reason it is invalid. */
export type StoredEntry =
  | { readonly kind: 'record'; readonly record: RootRecord }
  | { readonly kind: 'invalid'; readonly raw: unknown; readonly reason: string; readonly id?: string; readonly path?: string }

const field = (value: object, key: string): unknown => Reflect.get(value, key)
const text = (value: object, key: string): string | undefined => {
  const found = field(value, key)
  return typeof found === 'string' ? found : undefined
}

/** Why an alias is refused, or `undefined` when it is acceptable. */
export function aliasProblem(alias: string): string | undefined {
  if (alias.trim() === '') return 'an alias cannot be blank'
  if (alias.length > MAX_ALIAS_LENGTH) return `an alias has at most ${MAX_ALIAS_LENGTH} characters`
  // oxlint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f-\u009f]/u.test(alias)) return 'an alias cannot contain control characters'
  return undefined
}

/** Throws `invalid-alias` unless `alias` is acceptable. */
export function requireAlias(alias: string): void {
  const problem = aliasProblem(alias)
  if (problem !== undefined) throw new RootsError('invalid-alias', `${JSON.stringify(alias.slice(0, 40))}: ${problem}`)
}

function problemOf(value: object): string | undefined {
  const id = text(value, 'id')
  const path = text(value, 'path')
  const recorded = text(value, 'recordedPath')
  const alias = field(value, 'alias')
  if (id === undefined || id === '') return 'it has no id'
  if (path === undefined || !isAbsolute(path)) return 'its path is missing or not absolute'
  if (recorded === undefined || recorded === '') return 'it was stored without its canonical path'
  if (!isAbsolute(recorded)) return 'its canonical path is not absolute'
  if (text(value, 'addedAt') === undefined) return 'it has no time of addition'
  if (alias !== undefined && (typeof alias !== 'string' || aliasProblem(alias) !== undefined)) return 'its alias is not valid'
  return undefined
}

function parseOne(raw: unknown): StoredEntry {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { kind: 'invalid', raw, reason: 'it is not an object' }
  const problem = problemOf(raw)
  const id = text(raw, 'id')
  const path = text(raw, 'path')
  if (problem !== undefined) return { kind: 'invalid', raw, reason: problem, ...(id === undefined ? {} : { id }), ...(path === undefined ? {} : { path }) }
  const alias = text(raw, 'alias')
  const record: RootRecord = { id: id ?? '', path: path ?? '', recordedPath: text(raw, 'recordedPath') ?? '', addedAt: text(raw, 'addedAt') ?? '', ...(alias === undefined ? {} : { alias }) }
  return { kind: 'record', record }
}

/** Parses stored values in order; every record sharing an id with another becomes invalid. */
export function parseEntries(values: readonly unknown[]): StoredEntry[] {
  const entries = values.map(parseOne)
  const counts = new Map<string, number>()
  for (const entry of entries) if (entry.kind === 'record') counts.set(entry.record.id, (counts.get(entry.record.id) ?? 0) + 1)
  return entries.map((entry, index): StoredEntry => {
    if (entry.kind !== 'record' || (counts.get(entry.record.id) ?? 0) < 2) return entry
    return { kind: 'invalid', raw: values[index], reason: `its id ${entry.record.id} is shared with another record`, id: entry.record.id, path: entry.record.path }
  })
}

/** The value to store for an entry (invalid ones exactly as read). */
export const storedValue = (entry: StoredEntry): unknown => (entry.kind === 'record' ? { ...entry.record } : entry.raw)
