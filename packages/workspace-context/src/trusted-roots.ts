/**
 * Containment for the link policy (decision D3): a followed instruction link must end inside a
 * trusted root. Comparison is by whole path components on canonical paths, so `/repo-x` is not
 * inside `/repo`, while a child named `..foo` is. A session's extra trusted roots are its
 * available additional roots, read from the `workspaceRoots` service when one is provided.
 */
import { isAbsolute, relative } from 'node:path'
import type { SessionView, WorkspaceRootsService } from '@dsh/contracts'
import { isPlainPath, plainInside } from './plain-paths.ts'

/** True when canonical `path` equals `root` or lies below it. */
export function isInsideRoot(root: string, path: string): boolean {
  if (isPlainPath(root) && isPlainPath(path)) return plainInside(root, path)
  const rel = relative(root, path)
  if (rel === '') return true
  if (isAbsolute(rel)) return false
  return rel !== '..' && !rel.startsWith('../') && !rel.startsWith('..\\')
}

/** True when `path` lies inside any of `roots`. */
export const isInsideAny = (roots: readonly string[], path: string): boolean => roots.some((root) => isInsideRoot(root, path))

/**
 * The roots a followed project link may end in: the ones every session trusts (the project root,
 * the user-global file) and the session's extra roots, asked for only when a path lies outside
 * the fixed ones — asking may read the roots registry, and almost every candidate is a plain file
 * of the project, inside the project root.
 */
export interface TrustedRoots {
  readonly fixed: readonly string[]
  /** Asked again at every use: a root added or removed mid-session counts from then on. */
  readonly extra: () => readonly string[]
}

/** True when canonical `path` lies inside one of `roots` (the extra roots looked up only when needed). */
export const isTrusted = (roots: TrustedRoots, path: string): boolean => isInsideAny(roots.fixed, path) || isInsideAny(roots.extra(), path)

/**
 * Extra trusted roots of a session: its available additional roots from the `workspaceRoots`
 * service when one is provided, else the programmatic `fallback` (compositions without the service).
 */
export function sessionTrustedRoots(service: WorkspaceRootsService | undefined, session: SessionView, fallback: () => readonly string[]): readonly string[] {
  return service === undefined ? fallback() : service.session(session).writableRoots()
}
