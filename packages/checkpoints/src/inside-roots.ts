/**
 * Whether a path a rewind would write lies inside one of the session's roots, judged on the real
 * location: the nearest existing ancestor is resolved through links, so a directory replaced by a
 * link pointing out of the root does not carry a write outside it.
 */
import { realpathSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'

const within = (root: string, path: string): boolean => path === root || path.startsWith(`${root}/`)

function realLocation(path: string): string {
  const tail: string[] = []
  for (let current = path; ; current = dirname(current)) {
    try {
      return join(realpathSync(current), ...tail.toReversed())
    } catch {
      // Not there (yet): resolve its parent and keep the name.
      if (dirname(current) === current) return path
      tail.push(basename(current))
    }
  }
}

/** Whether `path` (absolute) lies inside one of `roots`, links resolved. */
export function insideRoots(path: string, roots: readonly string[]): boolean {
  const real = join(realLocation(dirname(path)), basename(path))
  return roots.some((root) => within(root, path) && within(realLocation(root), real))
}
