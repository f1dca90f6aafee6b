/**
 * One discovery of the skills of a working directory: the project root (the first ancestor with a
 * `.git`, else the cwd, as workspace-context finds it), the source directories in precedence
 * order, a scan of each, then precedence and trust. Links are followed only into the trusted roots
 * (project root, additional roots, `$DSH_HOME/skills`, `~/.agents/skills`, `~/.claude/skills`;
 * never the rest of `$DSH_HOME`, which holds sessions and the trust store). Rethrows only
 * cancellation.
 */
import type { FileSystemPort } from '@dsh/contracts'
import { findProjectRoot, type LinkPolicy } from '@dsh/workspace-context'
import { resolveSkills } from './precedence.ts'
import { DEFAULT_MAX_SKILL_BYTES, scanSource } from './scan.ts'
import { skillSources, userSources, type SourcesInput } from './sources.ts'
import type { BrokenSkill, LoadedSkill, SkillFamily, SkillSet, SkillSource } from './types.ts'

/** Inputs of {@link discoverSkills}. */
export interface DiscoverOptions {
  readonly fs: FileSystemPort
  /** Canonical working directory. */
  readonly cwd: string
  readonly dshHome: string
  /** The OS home. */
  readonly home: string
  /** Canonical paths of the available additional roots. */
  readonly additionalRoots?: readonly string[]
  /** Absolute directories below the cwd whose skills joined. */
  readonly nestedDirs?: readonly string[]
  /** The families each nested directory holds where a listing said so (sources.ts). */
  readonly nestedFamilies?: ReadonlyMap<string, readonly SkillFamily[] | undefined>
  /** Nested sources of earlier plans of the same project root (sources.ts). */
  readonly nestedMemo?: SourcesInput['nestedMemo']
  /** Trusted digests by project root (the trust store). */
  readonly trust?: Readonly<Record<string, Readonly<Record<string, string>>>>
  readonly maxSkillBytes?: number
  /** The project root when the caller already knows it. */
  readonly projectRoot?: string
  /** The canonical link roots of these inputs when the caller already has them (an earlier plan's, same roots). */
  readonly linkRoots?: readonly string[]
  readonly signal?: AbortSignal
}

/** The canonical path of absolute `path` (resolved as far as it exists). */
export async function canonical(fs: FileSystemPort, path: string, signal: AbortSignal | undefined): Promise<string> {
  return (await fs.resolve(path, { cwd: path, ...(signal === undefined ? {} : { signal }) })).path
}

/** What a discovery looks at: the project root, the link policy's roots, the sources in order. */
export interface DiscoveryPlan {
  readonly projectRoot: string
  readonly linkRoots: readonly string[]
  readonly policy: LinkPolicy
  readonly sources: readonly SkillSource[]
}

/** The plan of one discovery (a few stats and realpaths, nothing read). */
export async function discoveryPlan(options: DiscoverOptions): Promise<DiscoveryPlan> {
  const { fs, signal } = options
  const projectRoot = options.projectRoot ?? (await findProjectRoot(fs, options.cwd, ['.git'], signal)).root
  const additionalRoots = options.additionalRoots ?? []
  const userDirs = userSources(options).map((source) => source.dir)
  const linkRoots = options.linkRoots ?? (await Promise.all([projectRoot, ...userDirs, ...additionalRoots].map((path) => canonical(fs, path, signal))))
  const policy = { followSymlinks: true, trustedRoots: { fixed: linkRoots, extra: () => [] } }
  const sources = skillSources({ projectRoot, cwd: options.cwd, additionalRoots, dshHome: options.dshHome, home: options.home, nestedDirs: options.nestedDirs ?? [], ...(options.nestedFamilies === undefined ? {} : { nestedFamilies: options.nestedFamilies }), ...(options.nestedMemo === undefined || options.projectRoot !== projectRoot ? {} : { nestedMemo: options.nestedMemo }) })
  return { projectRoot, linkRoots, policy, sources }
}

/** Discovers the skill set of `options.cwd`. */
export async function discoverSkills(options: DiscoverOptions): Promise<SkillSet> {
  const plan = await discoveryPlan(options)
  const found: (LoadedSkill | BrokenSkill)[] = []
  for (const source of plan.sources) found.push(...(await scanSource(source, { fs: options.fs, policy: plan.policy, maxSkillBytes: options.maxSkillBytes ?? DEFAULT_MAX_SKILL_BYTES, signal: options.signal })))
  return resolveSkills({ found, projectRoot: plan.projectRoot, trusted: options.trust?.[plan.projectRoot] ?? {}, linkRoots: plan.linkRoots })
}
