/**
 * The canonical form of a directory the client names (links resolved), as dsh records it in
 * session headers. A path that does not resolve (gone, not accessible) is kept normalised, so a
 * comparison with it simply finds nothing.
 */
import { realpathSync } from 'node:fs'
import { resolve } from 'node:path'

/** `path` with its links resolved, or normalised when it cannot be resolved. */
export function canonicalDirectory(path: string): string {
  try {
    return realpathSync.native(path)
  } catch {
    // Nothing there (or not accessible): callers validate the directory where it matters.
    return resolve(path)
  }
}
