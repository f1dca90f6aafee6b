/**
 * Where documents live, derived only from a session (its id, its working directory, its parent
 * sessions) and the config — never from a path a caller names. Probe order of a relative document
 * name: the session's own folder `<cwd>/<docsDir>/<session>/`, the folders of the sessions that
 * delegated to it, the workspace level `<cwd>/<docsDir>/`, then the project root
 * `<root>/<docsDir>/`. An absolute document entry is used as it is.
 */
import { isAbsolute, join, normalize, sep } from 'node:path'

/** Which level a document location belongs to. */
export type DocumentLevel = 'session' | 'parent' | 'workspace' | 'project' | 'absolute'

/** One place a document may live. */
export interface DocumentLocation {
  readonly level: DocumentLevel
  readonly path: string
}

/** The session facts locations are derived from. */
export interface SessionPlace {
  /** Session id. */
  readonly sessionId: string
  /** Working directory of the session (canonical, from its header). */
  readonly cwd: string
  /** Project root found from the cwd (the cwd itself when none). */
  readonly projectRoot: string
  /** Ids of the sessions that delegated to this one, nearest first. */
  readonly lineage: readonly string[]
}

const SAFE_ID = /^[A-Za-z0-9._-]{1,128}$/u

/** The folder name of a session, or `undefined` for an id that is not a safe single path segment. */
export function sessionFolderName(sessionId: string): string | undefined {
  if (!SAFE_ID.test(sessionId) || sessionId === '.' || sessionId === '..') return undefined
  return sessionId
}

/** True when the configured name `name` ends with the path `tail` (`maintainer/README.md` ends with `README.md`). */
export function hasTail(name: string, tail: string): boolean {
  const a = name.replaceAll('\\', '/')
  return a === tail || a.endsWith(`/${tail}`)
}

/** True for a configured name that is safe under a folder (relative, no `..` segment). */
export function isSafeRelativeName(name: string): boolean {
  if (isAbsolute(name)) return false
  const parts = normalize(name).split(sep)
  return parts.every((part) => part !== '..' && part !== '') && name.trim() !== ''
}

/** The documents folder of the workspace. */
export function workspaceFolder(cwd: string, docsDir: string): string {
  return join(cwd, docsDir)
}

/** The session's own documents folder, or `undefined` for an unsafe id. */
export function sessionFolder(cwd: string, docsDir: string, sessionId: string): string | undefined {
  const name = sessionFolderName(sessionId)
  return name === undefined ? undefined : join(cwd, docsDir, name)
}

/** Every place `name` may live for `place`, in probe order. */
export function documentLocations(place: SessionPlace, docsDir: string, name: string): DocumentLocation[] {
  if (isAbsolute(name)) return [{ level: 'absolute', path: normalize(name) }]
  if (!isSafeRelativeName(name)) return []
  const out: DocumentLocation[] = []
  const own = sessionFolder(place.cwd, docsDir, place.sessionId)
  if (own !== undefined) out.push({ level: 'session', path: join(own, name) })
  for (const parent of place.lineage) {
    const folder = sessionFolder(place.cwd, docsDir, parent)
    if (folder !== undefined) out.push({ level: 'parent', path: join(folder, name) })
  }
  out.push({ level: 'workspace', path: join(workspaceFolder(place.cwd, docsDir), name) })
  if (place.projectRoot !== place.cwd) out.push({ level: 'project', path: join(place.projectRoot, docsDir, name) })
  return out
}
