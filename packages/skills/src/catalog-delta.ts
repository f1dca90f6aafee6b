/**
 * The next catalog message, computed purely from the skills the model may invoke now and what
 * the visible surface already told it: nothing delivered yet gives a complete catalog; otherwise
 * only new, changed and removed skills are named (an unchanged skill is never sent again). The
 * byte budget covers every catalog line in effect on the surface: a line that does not fit is
 * left out and its skill named in the notice, never dropped without a word.
 */
import type { CatalogChange, DeliveredEntry } from './delivered.ts'
import type { CatalogParts } from './catalog-text.ts'

/** One skill as the catalog would list it. */
export interface CatalogItem {
  readonly key: string
  /** The rendered (escaped) catalog line. */
  readonly line: string
  /** SHA-256 of `line`. */
  readonly digest: string
  /** UTF-8 bytes of `line` plus its newline. */
  readonly bytes: number
  /** Directory below the cwd it came from (nested skills). */
  readonly nestedDir?: string | undefined
}

/** A computed catalog message: its parts and the typed changes it records. */
export interface CatalogDelta {
  readonly parts: CatalogParts
  readonly changes: readonly CatalogChange[]
}

/** Computes the catalog message for `items` (in precedence order) against `delivered`. */
export function catalogDelta(items: readonly CatalogItem[], delivered: ReadonlyMap<string, DeliveredEntry>, maxBytes: number): CatalogDelta {
  const current = new Map(items.map((item) => [item.key, item]))
  const changes: CatalogChange[] = []
  const removed: string[] = []
  let used = 0
  for (const [key, entry] of delivered) {
    const item = current.get(key)
    if (item === undefined) {
      removed.push(key)
      changes.push({ action: 'remove', key })
    } else if (!entry.omitted && entry.digest === item.digest) used += entry.bytes
  }
  const offered: CatalogItem[] = []
  for (const item of items) {
    const entry = delivered.get(item.key)
    if (entry === undefined || entry.digest !== item.digest) offered.push(item)
  }
  return offer({ items: offered, delivered, used, maxBytes, changes, removed })
}

/**
 * The catalog message for `appended`, skills new to a catalog the model holds exactly (every
 * earlier item delivered or named as left out, nothing else on the surface), whose lines in
 * effect take `listedBytes`: what {@link catalogDelta} gives for the earlier items followed by
 * `appended` against that surface, computed from the new items alone (a join costs its own
 * skills, not the whole catalog).
 */
export function appendedDelta(appended: readonly CatalogItem[], delivered: ReadonlyMap<string, DeliveredEntry>, listedBytes: number, maxBytes: number): CatalogDelta {
  return offer({ items: appended, delivered, used: listedBytes, maxBytes, changes: [], removed: [] })
}

/** Lists each of `items` (new or changed against `delivered`) while the budget allows, naming the rest as left out. */
function offer(input: { readonly items: readonly CatalogItem[]; readonly delivered: ReadonlyMap<string, DeliveredEntry>; readonly used: number; readonly maxBytes: number; readonly changes: CatalogChange[]; readonly removed: readonly string[] }): CatalogDelta {
  const { delivered, maxBytes, changes } = input
  let used = input.used
  const added: string[] = []
  const changed: string[] = []
  const omitted: string[] = []
  for (const item of input.items) {
    const entry = delivered.get(item.key)
    const nested = item.nestedDir === undefined ? {} : { nestedDir: item.nestedDir }
    if (used + item.bytes > maxBytes) {
      omitted.push(item.key)
      changes.push({ action: 'omit', key: item.key, digest: item.digest, ...nested })
      continue
    }
    used += item.bytes
    ;(entry === undefined || entry.omitted ? added : changed).push(item.line)
    changes.push({ action: 'set', key: item.key, digest: item.digest, bytes: item.bytes, ...nested })
  }
  return { parts: { first: delivered.size === 0, added, changed, removed: input.removed, omitted, maxBytes }, changes }
}
