/**
 * Locations directory listings leave out (credentials, browser profiles, dsh's session logs: the
 * secret locations of the permission policy), so a `grep` or `glob` over a parent such as the
 * home directory never walks into them. An entry is left out when it is such a location, or a
 * link whose target lies in one; a listing of a directory that itself lies inside one (reached on
 * purpose, which the permission policy decides) is complete. Canonical paths are compared.
 */
import { realpathSync } from 'node:fs'
import { join } from 'node:path'
import type { FsDirEntry } from '@dsh/contracts'
import { canonicalPath, isInside } from './canonical-path.ts'

/** The canonical form of `path`, or undefined when it cannot be resolved (missing, a loop). */
function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync.native(path)
  } catch {
    // Missing or unresolvable: nothing there to hide (or to reach through it).
    return undefined
  }
}

/**
 * A filter of listings; `locations` are absolute. They are canonicalised once, at the first
 * listing (a missing one by its deepest existing ancestor, so it is still recognised when it
 * appears later): a walk of many directories costs one realpath per directory, not per location.
 */
export function unlistedFilter(locations: readonly string[]): (dir: string, entries: readonly FsDirEntry[]) => readonly FsDirEntry[] {
  let memo: readonly string[] | undefined
  const canonicalLocations = (): readonly string[] => {
    memo ??= locations.flatMap((location) => {
      try {
        return [canonicalPath(location)]
      } catch {
        // Unresolvable (EACCES, a loop): compared as given.
        return [location]
      }
    })
    return memo
  }
  return (dir, entries) => {
    if (locations.length === 0) return entries
    const canonical = canonicalLocations()
    const realDir = realOrUndefined(dir) ?? dir
    if (canonical.some((location) => isInside(location, realDir))) return entries
    return entries.filter((entry) => {
      const path = join(realDir, entry.name)
      if (canonical.includes(path)) return false
      if (entry.type !== 'symlink') return true
      const target = realOrUndefined(path)
      return target === undefined || !canonical.some((location) => isInside(location, target))
    })
  }
}
