/**
 * Per loop-instance facts: the project root (resolved once per instance, decision D5.1 "part of
 * the baseline identity"), the canonical home, the trusted roots for the link policy (of the home,
 * only its `AGENTS.md`), the
 * baseline identity, and which baseline files the budget left out.
 */
import { join, relative, sep } from 'node:path'
import type { FileSystemPort } from '@dsh/contracts'
import { rethrowIfAborted } from './abort.ts'
import { baselineIdentity, type ResolvedConfig } from './config.ts'
import { findProjectRoot, type ProjectRoot } from './project-root.ts'
import { InstanceDirs } from './instance-dirs.ts'
import { QuietPasses } from './quiet-passes.ts'
import type { TrustedRoots } from './trusted-roots.ts'

/** State of one agent loop instance. */
export interface InstanceState {
  readonly cwd: string
  readonly project: ProjectRoot
  readonly dshHome: string
  /**
   * Canonical paths a followed project link may end in (or below): the project root, the
   * canonical user-global file (exactly that file, not the rest of `$DSH_HOME`: sessions and
   * settings live there) and the extra roots. The extra roots (a session's additional workspace
   * roots) are asked again at every use, so a root added in the middle of a session is trusted
   * from the next examination on, and one that was removed no longer is.
   */
  readonly trustedRoots: TrustedRoots
  readonly identity: string
  /** Baseline scopes the budget left out, with the digest that was left out. */
  readonly omitted: Map<string, string>
  /** The first entering pre-step has run. */
  initialised: boolean
  /** Surface replace generation last checked for a shadowed baseline. */
  checkedGeneration: number
  /** Touch passes known to have nothing to say (`quiet-passes.ts`). */
  readonly quiet: QuietPasses
  /** The root-to-cwd chain and the directories of loaded scopes, built once (`instance-dirs.ts`). */
  readonly dirs: InstanceDirs
}

/** Canonical form of `path` through the port; the input itself when it cannot be resolved. */
export async function canonical(fs: FileSystemPort, path: string, signal?: AbortSignal): Promise<string> {
  try {
    return (await fs.resolve(path, { cwd: path, ...(signal === undefined ? {} : { signal }) })).path
  } catch (error) {
    // Resolution only canonicalises (links in parents); the plain absolute path is still usable.
    rethrowIfAborted(error, signal)
    return path
  }
}

/** Resolves the facts of a new loop instance; `extraTrustedRoots` is asked at every use of the trusted roots. */
export async function createInstance(fs: FileSystemPort, config: ResolvedConfig, cwd: string, extraTrustedRoots: () => readonly string[], signal?: AbortSignal): Promise<InstanceState> {
  const realCwd = await canonical(fs, cwd, signal)
  const project = await findProjectRoot(fs, realCwd, config.projectRootMarkers, signal)
  const dshHome = await canonical(fs, config.dshHome, signal)
  const userGlobal = await canonical(fs, join(dshHome, 'AGENTS.md'), signal)
  const fromCwd = relative(realCwd, project.root).split(sep).join('/')
  return {
    cwd: realCwd,
    project,
    dshHome,
    trustedRoots: { fixed: [project.root, userGlobal], extra: extraTrustedRoots },
    identity: baselineIdentity(config, fromCwd),
    omitted: new Map(),
    initialised: false,
    checkedGeneration: -1,
    quiet: new QuietPasses(),
    dirs: new InstanceDirs(project.root, realCwd),
  }
}
