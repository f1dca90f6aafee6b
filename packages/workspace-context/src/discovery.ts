/**
 * Discovery over a set of directories: the user-global file first, then project directories
 * broad to specific, each examined once. This is the reusable entry point (the multi-root plugin
 * runs it per additional root with its own root and trusted roots).
 *
 * A file reached under two paths (a link, a hard link; the same node) is read once and carried by
 * one scope; the others are marked as the same file (decision D9).
 *
 * With a shared record (the touches of one step, see `step-share.ts`), a directory already
 * examined in the step is taken from the record without any fs call, unless that examination
 * found something unavailable (retried) or skipped a read because the model had the file and the
 * model no longer has it (re-examined, so the content is there to offer again).
 */
import type { ResolvedConfig } from './config.ts'
import { displayPath, type DirRef } from './directories.ts'
import { isBlank } from './digest.ts'
import { examineDirectory, type Claims, type DirectoryExamination, type DirectorySpec, type ExamineOptions } from './directory-examiner.ts'
import { projectScope, userGlobalScope } from './scope-key.ts'
import type { SharedExaminations } from './step-share.ts'
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
export type PassOptions = Omit<ExamineOptions, 'claimed' | 'policy' | 'link' | 'maxSourceBytes'> & {
  /** Examinations shared with earlier passes of the same step (read and extended). */
  readonly shared?: SharedExaminations | undefined
  /** Whether the model holds this content under this scope and path (it keeps carrying a file reached under two paths). */
  readonly holds?: ((scopeKey: string, path: string, digest: string) => boolean) | undefined
}

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

/** Whether a recorded examination can stand in for a fresh one in this pass. */
function reusable(examination: DirectoryExamination, knownDigest: ExamineOptions['knownDigest']): boolean {
  return examination.observations.every((o) => o.state === 'absent' || (o.state === 'present' && (o.content !== undefined || isBlank(o) || knownDigest?.(o.scope.key, o.path) === o.digest)))
}

/** Records the files of a reused examination as examined in this pass. */
function claimReused(examination: DirectoryExamination, claimed: Claims): void {
  for (const o of examination.observations) {
    if (o.state === 'present' && claimed.get(o.nodeId)?.content === undefined) claimed.set(o.nodeId, { digest: o.digest, trimmedDigest: o.trimmedDigest, bytes: o.bytes, content: o.content })
  }
}

/**
 * Decision D9, one delivery per file: of the scopes whose files are the same (one node under two
 * paths), one carries the content — the first the model already holds it from (`holds`), else the
 * first in render order — and the others become same-file lines naming it. Blank files are left
 * alone (they deliver nothing anyway).
 */
function assignSameFiles(observations: ScopeObservation[], holds: PassOptions['holds']): void {
  const groups = new Map<string, number[]>()
  observations.forEach((o, index) => {
    if (o.state === 'present' && !isBlank(o)) groups.set(o.nodeId, [...(groups.get(o.nodeId) ?? []), index])
  })
  for (const indexes of groups.values()) {
    if (indexes.length < 2) continue
    const present = indexes.flatMap((index) => {
      const o = observations[index]
      return o?.state === 'present' ? [{ index, o }] : []
    })
    const owner = present.find(({ o }) => holds?.(o.scope.key, o.path, o.digest) === true) ?? present[0]
    if (owner === undefined) continue
    for (const { index, o } of present) if (o !== owner.o) observations[index] = { ...o, sameAs: { scope: owner.o.scope, path: owner.o.path } }
  }
}

/** Examines the user-global file (when asked) and `dirs`. Rethrows only cancellation. */
export async function discover(plan: DiscoveryPlan, pass: PassOptions, dirs: readonly DirRef[], includeUserGlobal: boolean): Promise<DiscoveryResult> {
  const { config } = plan
  const { shared, holds, ...rest } = pass
  const claimed: Claims = new Map()
  const base = { ...rest, claimed, maxSourceBytes: config.maxSourceBytes }
  const observations: ScopeObservation[] = []
  const details = new Map<string, DirectoryExamination>()
  const examine = async (key: string, options: ExamineOptions, spec: DirectorySpec): Promise<DirectoryExamination> => {
    const recorded = shared?.get(key)
    if (recorded !== undefined && reusable(recorded, pass.knownDigest)) {
      // A file is read at most once per pass, also when its examination is reused.
      claimReused(recorded, claimed)
      return recorded
    }
    const result = await examineDirectory(options, spec)
    shared?.set(key, result)
    return result
  }
  if (includeUserGlobal) {
    // The user-global file is user-owned configuration, not repository content: its link (for
    // example into a dotfiles checkout) is followed without the trusted-roots check.
    const home = await examine(
      `\u0000user-global\u0000${plan.dshHome}`,
      { ...base, policy: 'first', link: { followSymlinks: config.followSymlinks, trustedRoots: undefined } },
      { abs: plan.dshHome, base: ['AGENTS.md'], local: [], scopeOf: userGlobalScope, displayOf: () => config.userGlobalDisplay },
    )
    observations.push(...home.observations)
    details.set('user-global', home)
  }
  const link = { followSymlinks: config.followSymlinks, trustedRoots: config.instructionReadPolicy === 'trusted-roots' ? plan.trustedRoots : undefined }
  const examined = new Set<string>()
  for (const dir of orderDirs(dirs)) {
    const result = await examine(
      `${dir.rel}\u0000${dir.abs}`,
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
  assignSameFiles(observations, holds)
  return { observations, examined, details }
}
