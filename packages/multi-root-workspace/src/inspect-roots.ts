/**
 * Session-free reports for `dsh context`: the additional roots of a primary root with their
 * states and the instruction files at each available root's top level (what a new session there
 * receives at its first step), and, for a path inside an additional root, which of that root's
 * instruction files apply to work on it and when they reach the model.
 */
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import type { FileSystemPort, WorkspaceRoot, WorkspaceRootState } from '@dsh/contracts'
import { absOf, chainDirs, discover, isInsideRoot, relKey, type ResolvedConfig } from '@dsh/workspace-context'
import type { RootRegistry } from './root-registry.ts'

/** One instruction file found at a root's top level. */
export interface RootFileReport {
  /** Absolute path as shown. */
  readonly path: string
  /** `loaded`: sent at a session's first step (budget permitting); `unusable`: exists but cannot be loaded. */
  readonly state: 'loaded' | 'unusable'
  readonly bytes?: number
  /** Why it cannot be loaded. */
  readonly reason?: string
}

/** One additional root in the report. */
export interface RootReport {
  readonly ordinal: number
  readonly id: string
  readonly path: string
  readonly recordedPath: string
  readonly alias?: string
  readonly state: WorkspaceRootState
  readonly detail?: string
  readonly files: readonly RootFileReport[]
}

/** The roots of a primary root. */
export interface RootsReport {
  readonly primary: string
  readonly registryProblem?: string
  readonly roots: readonly RootReport[]
}

/** What the reports need. */
export interface InspectRootsOptions {
  readonly registry: RootRegistry
  /** Canonical primary root. */
  readonly primary: string
  readonly fs: FileSystemPort
  /** Discovery settings (workspace-context's resolved form). */
  readonly discovery: ResolvedConfig
  readonly signal?: AbortSignal
}

const passOf = (options: InspectRootsOptions) => ({ fs: options.fs, signal: options.signal, memo: undefined, directoryVersions: false, now: Date.now, probeAll: true })
const planOf = (options: InspectRootsOptions, root: string) => ({ config: options.discovery, root, dshHome: options.discovery.dshHome, trustedRoots: { fixed: [root], extra: () => [] } })

async function topLevelFiles(options: InspectRootsOptions, root: WorkspaceRoot): Promise<RootFileReport[]> {
  if (root.state !== 'available') return []
  const found = await discover(planOf(options, root.recordedPath), passOf(options), [{ rel: '.', abs: root.recordedPath }], false)
  return found.observations.flatMap((o): RootFileReport[] => {
    if (o.state === 'present') return [{ path: join(root.path, basename(o.absPath)), state: 'loaded', bytes: o.bytes }]
    if (o.state === 'unavailable') return [{ path: join(root.path, o.path), state: 'unusable', reason: o.reason }]
    return []
  })
}

/** The additional roots of `options.primary` with their top-level instruction files. */
export async function inspectRoots(options: InspectRootsOptions): Promise<RootsReport> {
  const listed = options.registry.list(options.primary)
  const roots: RootReport[] = []
  for (const root of listed.roots) {
    const { origin: _origin, addedAt: _addedAt, ...rest } = root
    roots.push({ ...rest, files: await topLevelFiles(options, root) })
  }
  return { primary: options.primary, ...(listed.problem === undefined ? {} : { registryProblem: listed.problem }), roots }
}

/** An applicable file of an additional root. */
export interface RootPathFile {
  readonly path: string
  readonly reason: string
}

/** Which files of an additional root apply to a path in it. */
export interface RootPathExplanation {
  /** Canonical path explained. */
  readonly target: string
  /** The root, as shown. */
  readonly root: string
  readonly files: readonly RootPathFile[]
  readonly skipped: readonly { readonly path: string; readonly reason: string }[]
}

/**
 * Explains `path` (absolute, or relative to `cwd`) when it lies inside an available additional
 * root of `options.primary`; `undefined` otherwise.
 */
export async function explainRootPath(options: InspectRootsOptions & { readonly path: string; readonly cwd: string }): Promise<RootPathExplanation | undefined> {
  const absolute = isAbsolute(options.path) ? options.path : resolve(options.cwd, options.path)
  const target = (await options.fs.resolve(absolute, { cwd: options.cwd, ...(options.signal === undefined ? {} : { signal: options.signal }) })).path
  const root = options.registry.list(options.primary).roots.find((candidate) => candidate.state === 'available' && isInsideRoot(candidate.recordedPath, target))
  if (root === undefined) return undefined
  const info = await options.fs.stat(target, options.signal)
  const dir = info?.type === 'directory' ? target : dirname(target)
  const found = await discover(planOf(options, root.recordedPath), passOf(options), chainDirs(root.recordedPath, dir), false)
  const own = relKey(root.recordedPath, dir)
  const files: RootPathFile[] = []
  const skipped: { path: string; reason: string }[] = []
  for (const o of found.observations) {
    if (o.scope.kind !== 'project') continue
    const shown = join(absOf(root.path, o.scope.dir), o.state === 'present' ? basename(o.absPath) : basename(o.path ?? ''))
    if (o.state === 'unavailable') skipped.push({ path: shown, reason: `exists but cannot be used (${o.reason})` })
    if (o.state !== 'present') continue
    const relation = o.scope.dir === own ? "the path's own directory" : 'an ancestor of the path'
    const reason =
      o.scope.dir === '.'
        ? `top level of the additional root (${relation}); sent from the first step of a session`
        : `instructions for \`${o.scope.dir}\` in the additional root (${relation}); sent after the agent first reads, writes or edits a file there or below`
    files.push({ path: shown, reason })
  }
  return { target, root: root.path, files, skipped }
}
