/**
 * Applies an update to one namespace of a parsed settings document in place, so comments, key
 * order and every other namespace survive the round trip.
 */
import { isMap, type Document } from 'yaml'

/**
 * Sets each defined field of `patch` under `namespace`. An existing scalar keeps its node (and
 * therefore its trailing comment); a section that is missing or not a mapping is replaced by a
 * new mapping holding the patch.
 */
export function applyPatch(document: Document, namespace: string, patch: Readonly<Record<string, unknown>>): void {
  const entries = Object.entries(patch).filter(([, value]) => value !== undefined)
  const section = document.get(namespace, true)
  if (!isMap(section)) {
    document.set(namespace, document.createNode(Object.fromEntries(entries)))
    return
  }
  for (const [key, value] of entries) {
    section.set(key, isScalarValue(value) ? value : document.createNode(value))
  }
}

function isScalarValue(value: unknown): boolean {
  return value === null || (typeof value !== 'object' && typeof value !== 'function')
}
