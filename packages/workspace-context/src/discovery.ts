/**
 * Discovery over a set of directories: the user-global file first, then project directories
 * broad to specific, each examined once. This is the reusable entry point (the multi-root plugin
 * runs it per additional root with its own root and trusted roots).
 */
import type { ResolvedConfig } from './config.ts'
import { displayPath, type DirRef } from './directories.ts'
import { examineDirectory, type DirectoryExamination, type ExamineOptions } from './directory-examiner.ts'
import { projectScope, userGlobalScope } from './scope-key.ts'
import type { ScopeObservation } from './types.ts'

/** Where discovery runs. */
export interface DiscoveryPlan {
  readonly config: ResolvedConfig
  /** Canonical project root; scope keys and display paths are relative to it. */
  readonly root: string
  /** Canonical `$DSH_HOME` (the user-global file lives there). */
  readonly dshHome: string
  /** Canonical roots a followed project link must stay inside. */
  readonly trustedRoots: readonly string[]
}

/** Per-pass settings (the rest comes from the plan). */
export type PassOptions = Omit<ExamineOptions, 'claimed' | 'policy' | 'link' | 'maxSourceBytes'>

/** Result of discovering a set of directories. */
export interface DiscoveryResult {
  /** Observations in render order (broad to specific). */
  readonly observations: readonly ScopeObservation[]
  /** Root-relative keys of the project directories examined. */
  readonly examined: ReadonlySet<string>
  /** Raw examinations (`user-global` key for the home) for reports. */
  readonly details: ReadonlyMap<string, DirectoryExamination>
}

const depth = (rel: string): number => (rel === '.' ? 0 : rel.split('/').length)

/** Sorted, de-duplicated directories (shallow first, then by path). */
export function orderDirs(dirs: readonly DirRef[]): DirRef[] {
  const unique = new Map<string, DirRef>()
  for (const dir of dirs) if (!unique.has(dir.rel)) unique.set(dir.rel, dir)
  return [...unique.values()].toSorted((a, b) => depth(a.rel) - depth(b.rel) || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))
}

/** Examines the user-global file (when asked) and `dirs`. Rethrows only cancellation. */
export async function discover(plan: DiscoveryPlan, pass: PassOptions, dirs: readonly DirRef[], includeUserGlobal: boolean): Promise<DiscoveryResult> {
  const { config } = plan
  const claimed = new Set<string>()
  const base = { ...pass, claimed, maxSourceBytes: config.maxSourceBytes }
  const observations: ScopeObservation[] = []
  const details = new Map<string, DirectoryExamination>()
  if (includeUserGlobal) {
    // The user-global file is user-owned configuration, not repository content: its link (for
    // example into a dotfiles checkout) is followed without the trusted-roots check.
    const home = await examineDirectory(
      { ...base, policy: 'first', link: { followSymlinks: config.followSymlinks, trustedRoots: undefined } },
      { abs: plan.dshHome, base: ['AGENTS.md'], local: [], scopeOf: userGlobalScope, displayOf: () => config.userGlobalDisplay },
    )
    observations.push(...home.observations)
    details.set('user-global', home)
  }
  const link = { followSymlinks: config.followSymlinks, trustedRoots: config.instructionReadPolicy === 'trusted-roots' ? plan.trustedRoots : undefined }
  const examined = new Set<string>()
  for (const dir of orderDirs(dirs)) {
    const result = await examineDirectory(
      { ...base, policy: config.candidatePolicy, link },
      {
        abs: dir.abs,
        base: config.instructionFileCandidates,
        local: config.localInstructionFileCandidates,
        scopeOf: (slot) => projectScope(dir.rel, slot),
        displayOf: (name) => displayPath(dir.rel, name),
      },
    )
    examined.add(dir.rel)
    details.set(dir.rel, result)
    observations.push(...result.observations)
  }
  return { observations, examined, details }
}
