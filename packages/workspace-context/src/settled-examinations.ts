/**
 * Settled examinations. A directory examination that rests only on trusted facts of the version
 * memo — the directory's candidate probes at its version and the digest of every present candidate
 * at its version, no candidate reached through a link, nothing unavailable — is kept together with
 * the (path, version) pairs it rests on. A later pass re-checks the records of every directory it
 * examines in one batch (one followed stat per pair, `FileSystemPort.versions` where the provider
 * has it: the local disk answers in one synchronous loop) and reuses a record whose pairs all
 * still hold: the full examination would find exactly that, with the same stats, no read. A pair
 * that changed sends its directory through the full examination. Records hold digests, never
 * instruction text, and are reused only where the model has every present file (like the step's
 * shared record, `discovery.ts`).
 */
import type { FileSystemPort, FsVersion } from '@dsh/contracts'
import { rethrowIfAborted } from './abort.ts'
import type { DirectoryExamination } from './directory-examiner.ts'
import type { VersionMemo } from './version-memo.ts'

/** One fact a record rests on: the followed stat of `path` still reports `version`. */
export interface VersionCheck {
  readonly path: string
  readonly version: FsVersion
}

/** A reusable examination and the facts it rests on. */
export interface SettledExamination {
  readonly checks: readonly VersionCheck[]
  readonly examination: DirectoryExamination
}

/**
 * The records of one session by the settings they were examined under (an opaque signature) and
 * directory key; its version memo drops them all when it forgets a fact.
 */
export class SettledExaminations {
  readonly #records = new Map<string, Map<string, SettledExamination>>()

  get(signature: string, key: string): SettledExamination | undefined {
    return this.#records.get(signature)?.get(key)
  }

  /** Keeps `record`, or drops the directory's record when there is none. */
  set(signature: string, key: string, record: SettledExamination | undefined): void {
    let records = this.#records.get(signature)
    if (record === undefined) {
      records?.delete(key)
      return
    }
    if (records === undefined) {
      records = new Map()
      this.#records.set(signature, records)
    }
    records.set(key, record)
  }

  clear(): void {
    this.#records.clear()
  }
}

/**
 * The record of `examination` of the directory at `directory` (its path and the version it was
 * examined at), when every fact it rests on is trusted by `memo`; `undefined` otherwise.
 */
export function settledRecord(directory: VersionCheck, examination: DirectoryExamination, memo: VersionMemo): SettledExamination | undefined {
  if (memo.directory(directory.path, directory.version) === undefined) return undefined
  const checks: VersionCheck[] = [directory]
  for (const probe of examination.probes) {
    if (probe.state === 'unavailable' || (probe.state === 'absent' && probe.note === 'dangling-link')) return undefined
    if (probe.state !== 'present') continue
    // A link's target can move without touching this directory: such a candidate is probed in full.
    if (probe.viaLink || probe.target !== probe.path || memo.file(probe.path, probe.info.version) === undefined) return undefined
    checks.push({ path: probe.path, version: probe.info.version })
  }
  const observations = []
  for (const observation of examination.observations) {
    if (observation.state === 'unavailable') return undefined
    observations.push(observation.state === 'present' && observation.content !== undefined ? { ...observation, content: undefined } : observation)
  }
  return { checks, examination: { observations, probes: examination.probes } }
}

async function versionsOneByOne(fs: FileSystemPort, paths: readonly string[], signal: AbortSignal | undefined): Promise<(FsVersion | undefined)[]> {
  const versions: (FsVersion | undefined)[] = []
  for (const path of paths) versions.push((await fs.stat(path, signal))?.version)
  return versions
}

/** The paths of every record's checks, in order (one batch). */
function checkedPaths(records: readonly SettledExamination[]): string[] {
  const paths: string[] = []
  for (let r = 0; r < records.length; r++) {
    const checks = records[r]?.checks ?? []
    for (let c = 0; c < checks.length; c++) paths.push(checks[c]?.path ?? '')
  }
  return paths
}

/** For each record, whether the versions found (in {@link checkedPaths} order) are all the expected ones. */
function verdicts(records: readonly SettledExamination[], versions: readonly (FsVersion | undefined)[]): boolean[] {
  const holding: boolean[] = []
  let index = 0
  for (let r = 0; r < records.length; r++) {
    const checks = records[r]?.checks ?? []
    let holds = true
    for (let c = 0; c < checks.length; c++) if (versions[index++] !== checks[c]?.version) holds = false
    holding.push(holds)
  }
  return holding
}

/**
 * For each record, whether every one of its facts still holds (all checked in one batch). The
 * loops live in the two synchronous helpers: this runs at every touch, and an async function with
 * a hot loop is what V8 optimises, state machine, inlined port and all (about 20 ms of background
 * compilation per run, issue 8 item 13); index loops, since iterators allocate before V8 optimises.
 */
export async function stillHolding(fs: FileSystemPort, records: readonly SettledExamination[], signal: AbortSignal | undefined): Promise<boolean[]> {
  const paths = checkedPaths(records)
  if (paths.length === 0) return records.map(() => false)
  let versions: readonly (FsVersion | undefined)[]
  try {
    versions = fs.versions === undefined ? await versionsOneByOne(fs, paths, signal) : await fs.versions(paths, signal)
  } catch (error) {
    // Some path could not be stat'ed: the full examinations look at each one and report it.
    rethrowIfAborted(error, signal)
    return records.map(() => false)
  }
  return verdicts(records, versions)
}
