/**
 * Per-session version memo: facts of the form "this file, at this provider version, has this
 * digest" and "this directory, at this version, had these candidate probe results". It never
 * holds instruction prose and never decides what the model sees; it only lets a pass skip reads
 * and candidate probes.
 *
 * Racy timestamps: a version can stay the same across a change made within one timestamp tick.
 * A fact is trusted only after it was re-confirmed at least `settleMs` after the version was
 * first seen: by then any later change must carry a later timestamp, hence a new version.
 */
import type { FsVersion } from '@dsh/contracts'
import type { CandidateProbe } from './types.ts'

/** What a file at one version contains. */
export interface FileFact {
  readonly version: FsVersion
  readonly digest: string
  readonly trimmedDigest: string
  readonly bytes: number
  readonly firstSeenAt: number
  readonly confirmedAt: number
}

/** Candidate probe results of a directory at one version (only the probed prefix in `first` mode). */
export interface DirectoryFact {
  readonly version: FsVersion
  readonly probes: readonly CandidateProbe[]
  readonly firstSeenAt: number
  readonly confirmedAt: number
}

/** The memo of one session. */
export class VersionMemo {
  readonly #files = new Map<string, FileFact>()
  readonly #dirs = new Map<string, DirectoryFact>()
  readonly #settleMs: number

  constructor(settleMs: number) {
    this.#settleMs = settleMs
  }

  #trusted(fact: { readonly firstSeenAt: number; readonly confirmedAt: number }): boolean {
    return fact.confirmedAt - fact.firstSeenAt >= this.#settleMs
  }

  /** The trusted fact of `path` at `version`, if any. */
  file(path: string, version: FsVersion): FileFact | undefined {
    const fact = this.#files.get(path)
    return fact !== undefined && fact.version === version && this.#trusted(fact) ? fact : undefined
  }

  /** Records what a read at `now` found for `path` at `version`. */
  recordFile(path: string, version: FsVersion, digests: { digest: string; trimmedDigest: string; bytes: number }, now: number): void {
    const previous = this.#files.get(path)
    const firstSeenAt = previous?.version === version ? previous.firstSeenAt : now
    this.#files.set(path, { version, ...digests, firstSeenAt, confirmedAt: now })
  }

  /** Forgets `path` (it vanished or could not be read). */
  forgetFile(path: string): void {
    this.#files.delete(path)
  }

  /** The trusted probe results of `dir` at `version`, if any. */
  directory(dir: string, version: FsVersion): DirectoryFact | undefined {
    const fact = this.#dirs.get(dir)
    return fact !== undefined && fact.version === version && this.#trusted(fact) ? fact : undefined
  }

  /** Records the probe results of `dir` at `version`, taken at `now`. */
  recordDirectory(dir: string, version: FsVersion, probes: readonly CandidateProbe[], now: number): void {
    const previous = this.#dirs.get(dir)
    const firstSeenAt = previous?.version === version ? previous.firstSeenAt : now
    this.#dirs.set(dir, { version, probes, firstSeenAt, confirmedAt: now })
  }

  /** Forgets `dir`. */
  forgetDirectory(dir: string): void {
    this.#dirs.delete(dir)
  }
}
