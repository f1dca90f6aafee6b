/**
 * Whether a write lands outside every writable root of its session. The path as written (made
 * absolute) and its canonical form (the deepest existing ancestor's links resolved) are both
 * compared, and only a path outside on both counts is outside: the write tool decides on the
 * canonical path, and the policy must never refuse what the tool would accept.
 */
import { lstatSync, realpathSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path'

/** Whether anything stands at `path` (a link counts as itself, not followed). */
export function present(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    // Missing (or its parent is no directory): nothing stands there.
    return false
  }
}

/** True when `path` is `dir` or lies below it (both absolute). */
export function within(dir: string, path: string): boolean {
  const inside = relative(dir, path)
  return inside === '' || (!inside.startsWith('..') && !isAbsolute(inside))
}

/** `path` with the links of its deepest existing ancestor resolved (as given when nothing resolves). */
export function canonicalTarget(path: string): string {
  const missing: string[] = []
  let current = resolve(path)
  for (;;) {
    try {
      return join(realpathSync.native(current), ...missing.toReversed())
    } catch {
      // Missing or unreadable: step up one level; at the top the path stays as written.
      const parent = dirname(current)
      if (parent === current) return resolve(path)
      missing.push(basename(current))
      current = parent
    }
  }
}

/** True when `path` lies outside every one of `roots`, as written and canonically. */
export function outsideEveryRoot(path: string, roots: readonly string[]): boolean {
  const canonicalRoots = roots.map(canonicalTarget)
  const target = canonicalTarget(path)
  return ![...roots, ...canonicalRoots].some((root) => within(root, path) || within(root, target))
}
