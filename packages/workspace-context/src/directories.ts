/**
 * Which directories a pass examines: the chain from the project root down to the cwd, the
 * directories strictly below the cwd down to a touched file, and directories of scopes already
 * loaded. Every directory carries its absolute path and its root-relative key (`/`-separated,
 * `.` for the root) used in scope keys and model-visible paths.
 */
import { dirname, isAbsolute, join, relative, sep } from 'node:path'
import { isPlainPath, plainInside, plainParent, plainRelKey } from './plain-paths.ts'
import { isInsideRoot } from './trusted-roots.ts'

/** One directory to examine. */
export interface DirRef {
  /** Absolute path. */
  readonly abs: string
  /** Root-relative key (`.` for the root). */
  readonly rel: string
}

/** Root-relative key of `abs` (which must lie inside `root`). */
export function relKey(root: string, abs: string): string {
  if (isPlainPath(root) && isPlainPath(abs) && plainInside(root, abs)) return plainRelKey(root, abs)
  const rel = relative(root, abs)
  return rel === '' ? '.' : rel.split(sep).join('/')
}

/** Absolute directory of a root-relative key (one without `.` and `..` parts, as scope keys have). */
export function absOf(root: string, rel: string): string {
  if (rel === '.') return root
  if (sep === '/' && isPlainPath(root) && isPlainPath(`/${rel}`)) return root === '/' ? `/${rel}` : `${root}/${rel}`
  return join(root, ...rel.split('/'))
}

/** Model-visible path of `name` in directory `rel`. */
export const displayPath = (rel: string, name: string): string => (rel === '.' ? name : `${rel}/${name}`)

/** Directories from `root` down to `cwd`, inclusive, broad to specific. Just `[cwd]` when cwd is outside root. */
export function chainDirs(root: string, cwd: string): DirRef[] {
  if (!isInsideRoot(root, cwd)) return [{ abs: cwd, rel: '.' }]
  const parent = isPlainPath(cwd) ? plainParent : dirname
  const dirs: DirRef[] = []
  for (let dir = cwd; ; dir = parent(dir)) {
    dirs.unshift({ abs: dir, rel: relKey(root, dir) })
    if (dir === root || parent(dir) === dir) break
  }
  return dirs
}

/**
 * Directories strictly below `cwd` down to the parent of `file`, shallow first. Empty for a file
 * directly in the cwd or outside it. Relative paths resolve against the cwd.
 */
export function descendantDirs(root: string, cwd: string, file: string): DirRef[] {
  const absolute = isAbsolute(file) ? file : join(cwd, file)
  const parentOf = isPlainPath(absolute) ? plainParent : dirname
  const parent = parentOf(absolute)
  if (parent === cwd || !isInsideRoot(cwd, parent) || !isInsideRoot(root, parent)) return []
  const dirs: DirRef[] = []
  for (let dir = parent; dir !== cwd && parentOf(dir) !== dir; dir = parentOf(dir)) dirs.unshift({ abs: dir, rel: relKey(root, dir) })
  return dirs
}
