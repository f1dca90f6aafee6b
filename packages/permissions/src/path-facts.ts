/**
 * What the policy needs to know about the path of a file-tool call, read from the disk once per
 * decision (the policy itself stays pure): the canonical path (links of the longest existing
 * prefix resolved), whether it reaches dsh's own state canonically or as a hard link of one of
 * its files (device and inode), whether a write would change a protected file (protected-files.ts),
 * and whether a read reaches a secret location (secret-locations.ts) or lies outside every root.
 */
import { statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { callSubject } from './call-subject.ts'
import { toolClass } from './mode-policy.ts'
import { protectedFileReason } from './protected-files.ts'
import { canonicalTarget, outsideEveryRoot, within } from './root-check.ts'

/** A protected file a write would change, and why it is protected. */
export interface ProtectedFile {
  /** The path as the model sees it (relative to the cwd when inside it). */
  readonly shown: string
  readonly reason: string
}

/** The facts of one call's path (all optional: a call without a path has none). */
export interface PathFacts {
  /** The canonical path of the call's subject. */
  readonly canonical?: string
  /** The entry of `protectedDirs` a write reaches through a hard link (same device and inode). */
  readonly hardLinked?: string
  /** Set for a `write`/`edit` of a protected file. */
  readonly protectedFile?: ProtectedFile
  /** The secret location a `read`/`grep`/`glob` reaches. */
  readonly secret?: string
  /** The roots a `read`/`grep`/`glob` lies outside of (set only when outside every one). */
  readonly readOutside?: readonly string[]
}

/** Inputs of {@link pathFacts}. */
export interface PathFactsOptions {
  readonly tool: string
  readonly args: unknown
  readonly cwd: string
  /** The session's writable roots (absolute). */
  readonly roots: readonly string[]
  /** dsh's own state (`$DSH_HOME`, the config file), canonical. */
  readonly protectedDirs: readonly string[]
  /** Secret locations (absolute; canonicalised here). */
  readonly secretPaths: readonly string[]
}

const readTools = new Set(['read', 'grep', 'glob'])

function identity(path: string): string | undefined {
  try {
    const stats = statSync(path, { throwIfNoEntry: false, bigint: true })
    return stats === undefined || !stats.isFile() ? undefined : `${stats.dev}:${stats.ino}`
  } catch {
    // Unreadable (EACCES, a loop): no identity to compare; the containment checks still apply.
    return undefined
  }
}

function executable(path: string): boolean {
  try {
    const stats = statSync(path, { throwIfNoEntry: false })
    return stats !== undefined && stats.isFile() && (stats.mode & 0o111) !== 0
  } catch {
    // Unreadable: treated as not executable; the write itself will fail on it.
    return false
  }
}

/** The components of `path` below the outermost root holding it (below `/` when none does). */
function componentsBelowRoot(path: string, roots: readonly string[]): string[] {
  const root = roots.filter((candidate) => within(candidate, path)).toSorted((a, b) => a.length - b.length)[0] ?? '/'
  const inside = relative(root, path)
  return inside === '' ? [] : inside.split(sep)
}

/** The facts of one call. */
export function pathFacts(options: PathFactsOptions): PathFacts {
  const subject = callSubject(options.tool, options.args, options.cwd)
  if (subject.kind !== 'path') return {}
  const canonical = canonicalTarget(subject.path)
  if (toolClass(options.tool) === 'write') {
    const roots = [...options.roots, ...options.roots.map(canonicalTarget)]
    const own = identity(canonical)
    // The entries themselves (the config file) and the files of dsh's home a link could reach.
    const files = options.protectedDirs.flatMap((entry) => [entry, join(entry, 'settings.yaml'), join(entry, 'AGENTS.md')])
    const hardLinked = own === undefined ? undefined : files.find((entry) => identity(entry) === own)
    const isExecutable = executable(canonical)
    const reason = protectedFileReason(componentsBelowRoot(canonical, roots), isExecutable) ?? protectedFileReason(componentsBelowRoot(subject.path, roots), isExecutable)
    const inCwd = relative(options.cwd, subject.path)
    const shown = inCwd !== '' && !inCwd.startsWith('..') ? inCwd : subject.path
    return { canonical, ...(hardLinked === undefined ? {} : { hardLinked }), ...(reason === undefined ? {} : { protectedFile: { shown, reason } }) }
  }
  if (!readTools.has(options.tool)) return { canonical }
  const secret = options.secretPaths.find((location) => within(location, subject.path) || within(canonicalTarget(location), canonical))
  const outside = options.roots.length > 0 && outsideEveryRoot(subject.path, options.roots) ? options.roots : undefined
  return { canonical, ...(secret === undefined ? {} : { secret }), ...(outside === undefined ? {} : { readOutside: outside }) }
}
