/**
 * Per-session version memo: facts of the form "this file, at this provider version, has this
 * digest" and "this directory, at this version, had these candidate probe results". It never
 * holds instruction prose and never decides what the model sees; it only lets a pass skip reads
 * and candidate probes.
 *
 * Racy timestamps: a version can stay the same across a change made within one timestamp tick.
 * A fact is trusted once a later change must produce a new version:
 * - when the provider reports the version's `changedAtMs` (the later of mtime and ctime), as soon
 *   as an observation starts at least `settleMs` after it: any change after that observation
 *   carries a later timestamp. A timestamp ahead of the clock is never trusted (the clocks
 *   disagree), until the clock has passed it by `settleMs`;
 * - otherwise (providers without timestamps) once the version was re-confirmed by an observation
 *   starting at least `settleMs` after the version was first seen.
 * Every observation of an untrusted fact re-probes or re-reads in full, so a trusted fact always
 * describes what that observation found. `settleMs` must exceed the filesystem's timestamp
 * granularity; 0 trusts every fact at once (except one dated ahead of the clock).
 */
import type { FsVersion } from '@dsh/contracts'
import { SettledExaminations } from './settled-examinations.ts'
import type { CandidateProbe } from './types.ts'

/** When a version was observed, on a wall clock comparable with file timestamps. */
export interface Sighting {
  /** Clock reading taken before the version was stat'ed (before anything recorded with it was read). */
  readonly startedAt: number
  /** Clock reading taken after the probes or the read finished. */
  readonly finishedAt: number
  /** The provider's `changedAtMs` of the version, when it reports one. */
  readonly changedAtMs?: number | undefined
}

interface Trust {
  readonly version: FsVersion
  /** `finishedAt` of the first sighting of this version. */
  readonly firstSeenAt: number
  /** Whether the latest sighting made the fact trustworthy. */
  readonly trusted: boolean
}

/** What a file at one version contains. */
export interface FileFact extends Trust {
  readonly digest: string
  readonly trimmedDigest: string
  readonly bytes: number
}

/** Candidate probe results of a directory at one version (only the probed prefix in `first` mode). */
export interface DirectoryFact extends Trust {
  readonly probes: readonly CandidateProbe[]
}

/** The memo of one session. */
export class VersionMemo {
  readonly #files = new Map<string, FileFact>()
  readonly #dirs = new Map<string, DirectoryFact>()
  readonly #settleMs: number
  /** Examinations that rest only on trusted facts of this memo (dropped whenever a fact is forgotten). */
  readonly settled = new SettledExaminations()
  #generation = 0

  constructor(settleMs: number) {
    this.#settleMs = settleMs
  }

  /** Trust of `version` after `sighting`, given the previous fact of the same path. */
  #judge(previous: Trust | undefined, version: FsVersion, sighting: Sighting): Trust {
    const firstSeenAt = previous?.version === version ? previous.firstSeenAt : sighting.finishedAt
    const { changedAtMs, startedAt } = sighting
    if (changedAtMs !== undefined) return { version, firstSeenAt, trusted: changedAtMs <= startedAt && startedAt - changedAtMs >= this.#settleMs }
    return { version, firstSeenAt, trusted: this.#settleMs <= 0 || startedAt - firstSeenAt >= this.#settleMs }
  }

  /** The trusted fact of `path` at `version`, if any. */
  file(path: string, version: FsVersion): FileFact | undefined {
    const fact = this.#files.get(path)
    return fact !== undefined && fact.version === version && fact.trusted ? fact : undefined
  }

  /** Records what a read found for `path` at `version`. */
  recordFile(path: string, version: FsVersion, digests: { digest: string; trimmedDigest: string; bytes: number }, sighting: Sighting): void {
    this.#files.set(path, { ...this.#judge(this.#files.get(path), version, sighting), ...digests })
  }

  /** Forgets `path` (it vanished or could not be read). */
  forgetFile(path: string): void {
    this.#files.delete(path)
    this.#forgot()
  }

  /** The trusted probe results of `dir` at `version`, if any. */
  directory(dir: string, version: FsVersion): DirectoryFact | undefined {
    const fact = this.#dirs.get(dir)
    return fact !== undefined && fact.version === version && fact.trusted ? fact : undefined
  }

  /** Records the probe results of `dir` at `version`. */
  recordDirectory(dir: string, version: FsVersion, probes: readonly CandidateProbe[], sighting: Sighting): void {
    this.#dirs.set(dir, { ...this.#judge(this.#dirs.get(dir), version, sighting), probes })
  }

  /** Forgets `dir`. */
  forgetDirectory(dir: string): void {
    this.#dirs.delete(dir)
    this.#forgot()
  }

  /** Counts the facts forgotten so far: what rested on them no longer stands. */
  get generation(): number {
    return this.#generation
  }

  #forgot(): void {
    this.#generation += 1
    this.settled.clear()
  }
}
