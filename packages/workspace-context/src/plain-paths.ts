/**
 * String operations on plain paths. A plain path is absolute, uses the platform separator, and
 * has no `.` or `..` part, no repeated separator and no trailing one — what canonical paths (the
 * project root, the cwd, a tool's touched target) look like. For plain paths, containment,
 * parent and root-relative keys are prefix and slice operations, equal to what `node:path`
 * computes with its general (and several times costlier) normalisation; anything else goes to
 * `node:path`.
 */
import { sep } from 'node:path'

const DOUBLE = `${sep}${sep}`
const DOT = `${sep}.${sep}`
const DOT_DOT = `${sep}..${sep}`
const TRAILING_DOT = `${sep}.`
const TRAILING_DOT_DOT = `${sep}..`

/** True for a plain path (see the module comment). */
export function isPlainPath(path: string): boolean {
  if (!path.startsWith(sep)) return false
  if (path === sep) return true
  if (path.endsWith(sep) || path.endsWith(TRAILING_DOT) || path.endsWith(TRAILING_DOT_DOT)) return false
  return !path.includes(DOUBLE) && !path.includes(DOT) && !path.includes(DOT_DOT)
}

/** `path` is `root` or below it; both plain. */
export function plainInside(root: string, path: string): boolean {
  if (path === root) return true
  return path.startsWith(root === sep ? root : `${root}${sep}`)
}

/** The parent of plain `path` (`sep` for a top-level path and for `sep` itself). */
export function plainParent(path: string): string {
  const cut = path.lastIndexOf(sep)
  return cut <= 0 ? sep : path.slice(0, cut)
}

/** Root-relative key of plain `path` inside plain `root`: `.` for the root, `/`-separated below. */
export function plainRelKey(root: string, path: string): string {
  if (path === root) return '.'
  const rel = path.slice(root === sep ? 1 : root.length + 1)
  return sep === '/' ? rel : rel.split(sep).join('/')
}
