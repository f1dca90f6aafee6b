/**
 * References to a listed root, as people type them: a 1-based number of the listing, an absolute
 * path (`~` expands; the path as added or its recorded canonical path), or an id. Anything else
 * is `invalid-ref`; a reference that matches nothing is `not-found`.
 */
import { isAbsolute } from 'node:path'
import type { WorkspaceRoot } from '@dsh/contracts'
import { RootsError } from './errors.ts'
import { expandHome, normalisedPath } from './validate-root.ts'

/** The root `reference` names in `roots`. */
export function resolveReference(roots: readonly WorkspaceRoot[], reference: string, home?: string): WorkspaceRoot {
  const ref = reference.trim()
  if (ref === '') throw new RootsError('invalid-ref', 'no root was named; give its number, path or id')
  if (/^\d+$/u.test(ref)) {
    const found = roots.find((root) => root.ordinal === Number(ref))
    if (found === undefined) throw new RootsError('not-found', `there is no additional root ${ref} (there ${roots.length === 1 ? 'is 1' : `are ${roots.length}`})`)
    return found
  }
  const expanded = expandHome(ref, home)
  if (isAbsolute(expanded)) {
    const path = normalisedPath(expanded)
    const found = roots.find((root) => root.path === path || root.recordedPath === path)
    if (found === undefined) throw new RootsError('not-found', `no additional root has the path ${path}`)
    return found
  }
  if (ref.includes('/') || ref.includes('\\') || ref.startsWith('.')) throw new RootsError('invalid-ref', `${ref} is not an absolute path; give the full path, a number or an id`)
  const matches = roots.filter((root) => root.id === ref)
  if (matches.length > 1) throw new RootsError('invalid-ref', `the id ${ref} is shared by ${matches.length} records; remove them by number`)
  const [found] = matches
  if (found === undefined) throw new RootsError('not-found', `no additional root has the id ${ref}`)
  return found
}
