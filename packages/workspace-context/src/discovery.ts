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
import { settledRecord, stillHolding, type SettledExamination, type SettledExaminations } from './settled-examinations.ts'
import type { VersionMemo } from './version-memo.ts'
import type { SharedExaminations } from './step-share.ts'
import type { TrustedRoots } from './trusted-roots.ts'
import type { ScopeObservation } from './types.ts'

/** Where discovery runs. */
export interface DiscoveryPlan {
  readonly config: ResolvedConfig
  /** Canonical project root; scope keys and display paths are relative to it. */
  readonly root: string
  /** Canonical `$DSH_HOME` (the user-global file lives there). */
  readonly dshHome: string
  /** Canonical roots a followed project link must stay inside. */
  readonly trustedRoots: TrustedRoots
}

/** Per-pass settings (the rest comes from the plan). */
export type PassOptions = Omit<ExamineOptions, 'claimed' | 'policy' | 'link' | 'maxSourceBytes'> & {
  /** Examinations shared with earlier passes of the same step (read and extended). */
  readonly shared?: SharedExaminations | undefined
  /** Whether the model holds this content under this scope and path (it keeps carrying a file reached under two paths). */
  readonly holds?: ((scopeKey: string, path: string, digest: string) => boolean) | undefined
  /** Settled records whose checks already ran in this pass, with their verdicts (not checked again). */
  readonly checked?: ReadonlyMap<SettledExamination, boolean> | undefined
}

/** Result of discovering a set of directories. */
export interface DiscoveryResult {
  /** Observations in render order (broad to specific). */
  readonly observations: readonly ScopeObservation[]
  /** Root-relative keys of the project directories examined. */
  readonly examined: ReadonlySet<string>
  /** Raw examinations (`user-global` key for the home) for reports. */
  readonly details: ReadonlyMap<string, DirectoryExamination>
  /** Directory key → the settled record taken instead of examining, for every directory that took one. */
  readonly settled: ReadonlyMap<string, SettledExamination>
  /** How many directories were examined or taken from a record in all. */
  readonly directories: number
  /** Whether some file was reached under two paths (decision D9). */
  readonly sameFiles: boolean
}

/** Key of a project directory in the step's record and among settled records. */
export const directoryKey = (dir: DirRef): string => `${dir.rel}\u0000${dir.abs}`

/** Key of the user-global directory `dshHome` in the step's record and among settled records. */
export const userGlobalKey = (dshHome: string): string => `\u0000user-global\u0000${dshHome}`

/** Depth of a root-relative key: 0 for the root, one more per `/`-separated part. */
function depth(rel: string): number {
  if (rel === '.') return 0
  let parts = 1
  for (let index = rel.indexOf('/'); index !== -1; index = rel.indexOf('/', index + 1)) parts++
  return parts
}

/** Sorted, de-duplicated directories (shallow first, then by path). */
export function orderDirs(dirs: readonly DirRef[]): DirRef[] {
  const unique = new Map<string, { readonly dir: DirRef; readonly depth: number }>()
  for (const dir of dirs) if (!unique.has(dir.rel)) unique.set(dir.rel, { dir, depth: depth(dir.rel) })
  return [...unique.values()].toSorted((a, b) => a.depth - b.depth || (a.dir.rel < b.dir.rel ? -1 : a.dir.rel > b.dir.rel ? 1 : 0)).map((entry) => entry.dir)
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
function assignSameFiles(observations: ScopeObservation[], holds: PassOptions['holds']): boolean {
  // Indexes per node, kept only for nodes seen twice (the usual pass has none).
  const first = new Map<string, number>()
  const groups = new Map<string, number[]>()
  observations.forEach((o, index) => {
    if (o.state !== 'present' || isBlank(o)) return
    const seen = first.get(o.nodeId)
    if (seen === undefined) first.set(o.nodeId, index)
    else groups.set(o.nodeId, [...(groups.get(o.nodeId) ?? [seen]), index])
  })
  for (const indexes of groups.values()) {
    const present = indexes.flatMap((index) => {
      const o = observations[index]
      return o?.state === 'present' ? [{ index, o }] : []
    })
    const owner = present.find(({ o }) => holds?.(o.scope.key, o.path, o.digest) === true) ?? present[0]
    if (owner === undefined) continue
    for (const { index, o } of present) if (o !== owner.o) observations[index] = { ...o, sameAs: { scope: owner.o.scope, path: owner.o.path } }
  }
  return groups.size > 0
}

/** One directory to examine, with its settings. */
interface Job {
  /** Key of the step's shared record (and, with the settings signature, of its settled record). */
  readonly key: string
  readonly options: ExamineOptions
  readonly spec: DirectorySpec
  /** Root-relative key of a project directory; absent for the user-global one. */
  readonly rel?: string
}

/**
 * What a settled record depends on besides the versions it checks: the settings of the
 * examination. Not the trusted roots themselves (a session's additional roots can change between
 * passes): a settled record holds no candidate reached through a link, and a file reached without
 * one lies in its directory, inside the project root, which is always trusted.
 */
const settingsSignature = (options: Pick<ExamineOptions, 'policy' | 'maxSourceBytes' | 'link'>, spec: Pick<DirectorySpec, 'base' | 'local'>): string =>
  JSON.stringify([options.policy, options.maxSourceBytes, options.link.followSymlinks, options.link.trustedRoots === undefined, spec.base, spec.local])

/** The link policy of project directories under `plan`. */
const projectLink = (plan: DiscoveryPlan): ExamineOptions['link'] => ({ followSymlinks: plan.config.followSymlinks, trustedRoots: plan.config.instructionReadPolicy === 'trusted-roots' ? plan.trustedRoots : undefined })

/** The settled records `memo` keeps of project directories under `plan`, by directory. */
export function settledProjectRecords(plan: DiscoveryPlan, memo: VersionMemo): (dir: DirRef) => SettledExamination | undefined {
  const { config } = plan
  // Only whether links are checked against trusted roots, not which roots (see `settingsSignature`).
  const link = { followSymlinks: config.followSymlinks, trustedRoots: config.instructionReadPolicy === 'trusted-roots' ? { fixed: [], extra: () => [] } : undefined }
  const signature = settingsSignature({ policy: config.candidatePolicy, maxSourceBytes: config.maxSourceBytes, link }, { base: config.instructionFileCandidates, local: config.localInstructionFileCandidates })
  return (dir) => memo.settled.get(signature, directoryKey(dir))
}

/** Examines the user-global file (when asked) and `dirs`. Rethrows only cancellation. */
export async function discover(plan: DiscoveryPlan, pass: PassOptions, dirs: readonly DirRef[], includeUserGlobal: boolean): Promise<DiscoveryResult> {
  const run = new DiscoveryRun(plan, pass)
  const jobs = run.jobs(dirs, includeUserGlobal)
  await run.checkSettled(jobs)
  return run.examineAll(jobs)
}

/**
 * One discovery: its jobs, the settled records still holding, and what the examinations found.
 * Split into small steps so the work of a pass is spread over short functions.
 */
class DiscoveryRun {
  readonly #plan: DiscoveryPlan
  readonly #pass: PassOptions
  readonly #claimed: Claims = new Map()
  readonly #base: Omit<ExamineOptions, 'policy' | 'link'>
  readonly #signatures = new Map<ExamineOptions, string>()
  /** Directory key → the settled record found to hold. */
  readonly #holding = new Map<string, SettledExamination>()
  /** Directory key → the settled record taken instead of examining. */
  readonly #taken = new Map<string, SettledExamination>()
  /** Reused examinations whose files are not claimed yet: claims only matter to a full examination. */
  readonly #unclaimed: DirectoryExamination[] = []

  constructor(plan: DiscoveryPlan, pass: PassOptions) {
    this.#plan = plan
    this.#pass = pass
    const { shared: _shared, holds: _holds, checked: _checked, ...rest } = pass
    this.#base = { ...rest, claimed: this.#claimed, maxSourceBytes: plan.config.maxSourceBytes }
  }

  /** The examinations to make, the user-global directory first, then `dirs` broad to specific. */
  jobs(dirs: readonly DirRef[], includeUserGlobal: boolean): Job[] {
    const { config } = this.#plan
    const jobs: Job[] = []
    if (includeUserGlobal) {
      // The user-global file is user-owned configuration, not repository content: its link (for
      // example into a dotfiles checkout) is followed without the trusted-roots check.
      jobs.push({
        key: userGlobalKey(this.#plan.dshHome),
        options: { ...this.#base, policy: 'first', link: { followSymlinks: config.followSymlinks, trustedRoots: undefined } },
        spec: { abs: this.#plan.dshHome, base: ['AGENTS.md'], local: [], scopeOf: userGlobalScope, displayOf: () => config.userGlobalDisplay },
      })
    }
    const options = { ...this.#base, policy: config.candidatePolicy, link: projectLink(this.#plan) }
    for (const dir of orderDirs(dirs)) jobs.push(projectJob(dir, options, config))
    return jobs
  }

  /** Finds the jobs whose settled record still holds (the step's record aside), checked in one batch. */
  async checkSettled(jobs: readonly Job[]): Promise<void> {
    const settled = this.#pass.memo?.settled
    if (settled === undefined) return
    const candidates: Job[] = []
    const records: SettledExamination[] = []
    for (const job of jobs) {
      const record = this.#settledCandidate(job, settled)
      if (record === undefined) continue
      candidates.push(job)
      records.push(record)
    }
    const verdicts = await stillHolding(this.#pass.fs, records, this.#pass.signal)
    verdicts.forEach((holds, index) => {
      const job = candidates[index]
      const record = records[index]
      if (holds && job !== undefined && record !== undefined) this.#holding.set(job.key, record)
    })
  }

  /** A settled record of `job` still to check, after taking one known to hold. */
  #settledCandidate(job: Job, settled: SettledExaminations): SettledExamination | undefined {
    const { knownDigest } = this.#pass
    const fromStep = this.#pass.shared?.get(job.key)
    const record = settled.get(this.#signatureOf(job), job.key)
    if (fromStep !== undefined && reusable(fromStep, knownDigest)) {
      // An earlier touch of this step took the record after checking it: it still stands.
      if (record !== undefined && record.examination === fromStep) this.#holding.set(job.key, record)
      return undefined
    }
    if (record === undefined || !reusable(record.examination, knownDigest)) return undefined
    const verdict = this.#pass.checked?.get(record)
    if (verdict === true) this.#holding.set(job.key, record)
    return verdict === undefined ? record : undefined
  }

  #signatureOf(job: Job): string {
    let signature = this.#signatures.get(job.options)
    if (signature === undefined) {
      signature = settingsSignature(job.options, job.spec)
      this.#signatures.set(job.options, signature)
    }
    return signature
  }

  /** Examines (or takes from a record) every job in order. */
  async examineAll(jobs: readonly Job[]): Promise<DiscoveryResult> {
    const observations: ScopeObservation[] = []
    const details = new Map<string, DirectoryExamination>()
    const examined = new Set<string>()
    for (const job of jobs) {
      const result = this.#reused(job) ?? (await this.#examine(job))
      if (job.rel === undefined) details.set('user-global', result)
      else {
        examined.add(job.rel)
        details.set(job.rel, result)
      }
      for (const observation of result.observations) observations.push(observation)
    }
    const sameFiles = assignSameFiles(observations, this.#pass.holds)
    return { observations, examined, details, settled: this.#taken, directories: jobs.length, sameFiles }
  }

  /** The examination of `job` from the step's record or a settled record, if one stands. */
  #reused(job: Job): DirectoryExamination | undefined {
    const { shared, knownDigest } = this.#pass
    const fromStep = shared?.get(job.key)
    const record = this.#holding.get(job.key)
    if (record !== undefined) this.#taken.set(job.key, record)
    const recorded = fromStep !== undefined && reusable(fromStep, knownDigest) ? fromStep : record?.examination
    if (recorded === undefined) return undefined
    // A file is read at most once per pass, also when its examination is reused.
    this.#unclaimed.push(recorded)
    shared?.set(job.key, recorded)
    return recorded
  }

  async #examine(job: Job): Promise<DirectoryExamination> {
    for (const reused of this.#unclaimed.splice(0)) claimReused(reused, this.#claimed)
    const result = await examineDirectory(job.options, job.spec)
    this.#pass.shared?.set(job.key, result)
    const { memo } = this.#pass
    if (memo !== undefined) memo.settled.set(this.#signatureOf(job), job.key, result.version === undefined ? undefined : settledRecord({ path: job.spec.abs, version: result.version }, result, memo))
    return result
  }
}

/** The examination of project directory `dir`. */
function projectJob(dir: DirRef, options: ExamineOptions, config: ResolvedConfig): Job {
  return {
    key: directoryKey(dir),
    rel: dir.rel,
    options,
    spec: {
      abs: dir.abs,
      base: config.instructionFileCandidates,
      local: config.localInstructionFileCandidates,
      scopeOf: (slot) => projectScope(dir.rel, slot),
      displayOf: (name) => displayPath(dir.rel, name),
    },
  }
}
