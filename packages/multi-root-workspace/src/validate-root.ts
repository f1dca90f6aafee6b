/**
 * Validation of a path offered as an additional root, in a fixed order with stable codes:
 *
 * 1. `~` expansion, then `not-absolute`;
 * 2. `missing` (nothing there, or not examinable), `not-a-directory`;
 * 3. canonicalisation (links resolved);
 * 4. `equals-primary`, then `primary-overlap` (inside the primary root, or containing it);
 * 5. `duplicate` (the same directory, or the same path, as another root);
 * 6. `nested` (inside another root, or containing one).
 *
 * Adding a path that an existing root was recorded under, but that now resolves elsewhere (a
 * `redirected` or `missing` root), re-records that root instead of failing: re-adding is how a
 * person accepts the new target. Comparisons use canonical paths and whole path components.
 */
import { isAbsolute, normalize, sep } from 'node:path'
import { expandTilde } from '@dsh/runtime'
import { isInsideRoot } from '@dsh/workspace-context'
import { RootsError } from './errors.ts'
import { probePath } from './path-probe.ts'

/** A root that already exists (registered or session-only). */
export interface KnownRoot {
  /** 1-based number in the listing (for messages). */
  readonly ordinal: number
  readonly id: string
  readonly path: string
  /** Canonical recorded path; empty for an invalid record without one (ignored). */
  readonly recordedPath: string
}

/** What is validated. */
export interface RootCandidate {
  /** Canonical primary root. */
  readonly primary: string
  /** The path as given. */
  readonly path: string
  /** Every root that exists now. */
  readonly known: readonly KnownRoot[]
  /** OS home for `~` (tests); default the real one. */
  readonly home?: string | undefined
}

/** A path that passed. */
export interface ValidRoot {
  /** Absolute, normalised path as given (links kept). */
  readonly path: string
  /** Canonical path now. */
  readonly canonical: string
  /** The known root this addition re-records (same path, new target), if any. */
  readonly reRecords?: KnownRoot
}

/** `path` with a leading `~` or `~/` expanded against the OS home (or `home`). */
export const expandHome = (path: string, home?: string): string => (path === '~' || path.startsWith('~/') ? expandTilde(path, home) : path)

/** Normalised form of absolute `path`, without a trailing separator. */
export function normalisedPath(path: string): string {
  const normal = normalize(path)
  return normal.length > 1 && normal.endsWith(sep) ? normal.slice(0, -1) : normal
}

const describeRoot = (root: KnownRoot): string => `additional root ${root.ordinal} (${root.path})`

/** Validates `candidate`; throws a {@link RootsError} naming the first rule it breaks. */
export function validateRoot(candidate: RootCandidate): ValidRoot {
  const given = candidate.path.trim()
  if (given === '') throw new RootsError('not-absolute', 'no path was given')
  const expanded = expandHome(given, candidate.home)
  if (!isAbsolute(expanded)) throw new RootsError('not-absolute', `${given} is not an absolute path; give the full path (for example /home/me/lib)`)
  const path = normalisedPath(expanded)
  const probe = probePath(path)
  if (probe.kind === 'absent') throw new RootsError('missing', `${path} does not exist`)
  if (probe.kind === 'unavailable') throw new RootsError('missing', `${path} cannot be examined (${probe.detail})`)
  if (probe.kind === 'not-a-directory') throw new RootsError('not-a-directory', `${path} is not a directory`)
  const { canonical } = probe
  const { primary } = candidate
  if (canonical === primary) throw new RootsError('equals-primary', `${path} is the primary root itself (the session's working directory)`)
  if (isInsideRoot(primary, canonical)) throw new RootsError('primary-overlap', `${path} is inside the primary root ${primary}, which is writable already`)
  if (isInsideRoot(canonical, primary)) throw new RootsError('primary-overlap', `${path} contains the primary root ${primary}; add a directory beside it instead`)
  const known = candidate.known.filter((root) => root.recordedPath !== '')
  const samePath = known.find((root) => root.path === path)
  const reRecords = samePath !== undefined && samePath.recordedPath !== canonical ? samePath : undefined
  const others = known.filter((root) => root !== reRecords)
  const duplicate = others.find((root) => root.recordedPath === canonical || root.path === path)
  if (duplicate !== undefined) throw new RootsError('duplicate', `${path} is already ${describeRoot(duplicate)}`)
  for (const root of others) {
    if (isInsideRoot(root.recordedPath, canonical)) throw new RootsError('nested', `${path} is inside ${describeRoot(root)}`)
    if (isInsideRoot(canonical, root.recordedPath)) throw new RootsError('nested', `${path} contains ${describeRoot(root)}`)
  }
  return { path, canonical, ...(reRecords === undefined ? {} : { reRecords }) }
}
