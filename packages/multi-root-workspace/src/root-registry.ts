/**
 * The persisted registry of additional roots, keyed by canonical primary root. Listings read the
 * file and re-check every root on the disk (never writing); mutations take the cross-process lock,
 * re-read the file, change one primary root's entries and replace the file atomically. A file
 * that cannot be read lists no roots (with the problem) and refuses every mutation with
 * `storage-unavailable`; it is never overwritten.
 */
import { randomUUID } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { WorkspaceRoot } from '@dsh/contracts'
import { RootsError } from './errors.ts'
import { readRegistry, REGISTRY_FILE, writeRegistry } from './registry-file.ts'
import { withRegistryLock, type LockOptions } from './registry-lock.ts'
import { parseEntries, requireAlias, storedValue, type RootRecord, type StoredEntry } from './root-record.ts'
import { listedEntry } from './root-state.ts'
import { validateRoot, type KnownRoot } from './validate-root.ts'

/** Options of {@link RootRegistry}. */
export interface RootRegistryOptions {
  /** Resolved `$DSH_HOME`. */
  readonly dshHome: string
  /** Clock for `addedAt`. */
  readonly clock?: () => Date
  /** Lock waiting and staleness (tests shorten them). */
  readonly lock?: Omit<LockOptions, 'file'>
  /** OS home for `~` (tests). */
  readonly home?: string
}

/** The registered roots of one primary root. */
export interface RegistryListing {
  readonly roots: readonly WorkspaceRoot[]
  /** Why the registry could not be read (then `roots` is empty). */
  readonly problem?: string
}

/** Identity of a listed entry, checked again under the lock. */
type EntryIdentity = Pick<WorkspaceRoot, 'ordinal' | 'id' | 'path'>

/** Reads and changes the registry file of one `$DSH_HOME`. */
export class RootRegistry {
  /** The registry file. */
  readonly file: string
  readonly #options: RootRegistryOptions
  #queue: Promise<unknown> = Promise.resolve()

  constructor(options: RootRegistryOptions) {
    this.#options = options
    this.file = join(options.dshHome, REGISTRY_FILE)
  }

  /** Registered roots of `primary` with their states now. Never throws. */
  list(primary: string): RegistryListing {
    const read = readRegistry(this.file)
    if (read.state === 'unavailable') return { roots: [], problem: read.problem }
    return { roots: parseEntries(read.primaries.get(primary) ?? []).map((entry, index) => listedEntry(entry, index + 1)) }
  }

  /**
   * Validates `path` against the primary root, the registered roots and `others` (session-only
   * roots, numbered after the registered ones) and registers it; re-adding the path of a root
   * that now leads elsewhere re-records that root.
   */
  async add(primary: string, path: string, options: { readonly alias?: string | undefined; readonly others?: readonly KnownRoot[] } = {}): Promise<WorkspaceRoot> {
    if (options.alias !== undefined) requireAlias(options.alias)
    return this.#mutate(primary, (entries) => {
      const listed = entries.map((entry, index) => listedEntry(entry, index + 1))
      const valid = validateRoot({ primary, path, known: [...listed, ...(options.others ?? [])], home: this.#options.home })
      const reRecorded = valid.reRecords === undefined ? undefined : listed.find((root) => root.id === valid.reRecords?.id && root.ordinal === valid.reRecords.ordinal)
      if (valid.reRecords !== undefined && reRecorded === undefined) throw new RootsError('duplicate', `${valid.path} is already ${describe(valid.reRecords)}`)
      const addedAt = (this.#options.clock ?? (() => new Date()))().toISOString()
      const alias = options.alias ?? (reRecorded?.alias === undefined ? undefined : reRecorded.alias)
      const record: RootRecord = { id: reRecorded?.id ?? randomUUID(), path: valid.path, recordedPath: valid.canonical, addedAt, ...(alias === undefined ? {} : { alias }) }
      const at = reRecorded === undefined ? entries.length : reRecorded.ordinal - 1
      const next = entries.toSpliced(at, reRecorded === undefined ? 0 : 1, { kind: 'record', record })
      return { entries: next, result: listedEntry({ kind: 'record', record }, at + 1) }
    })
  }

  /** Removes the entry listed as `target` (checked again under the lock). */
  async remove(primary: string, target: EntryIdentity): Promise<WorkspaceRoot> {
    return this.#mutate(primary, (entries) => {
      const at = this.#locate(entries, target)
      return { entries: entries.toSpliced(at, 1), result: listedEntry(entries[at] ?? invalidPlaceholder, at + 1) }
    })
  }

  /** Sets or clears the alias of the entry listed as `target`. */
  async alias(primary: string, target: EntryIdentity, alias: string | undefined): Promise<WorkspaceRoot> {
    if (alias !== undefined) requireAlias(alias)
    return this.#mutate(primary, (entries) => {
      const at = this.#locate(entries, target)
      const entry = entries[at]
      if (entry?.kind !== 'record') throw new RootsError('invalid-ref', `additional root ${target.ordinal} is an invalid record; it can only be removed`)
      const { alias: _old, ...rest } = entry.record
      const record: RootRecord = alias === undefined ? rest : { ...rest, alias }
      return { entries: entries.toSpliced(at, 1, { kind: 'record', record }), result: listedEntry({ kind: 'record', record }, at + 1) }
    })
  }

  /**
   * Where the entry listed as `target` is now: found by its id and path under the lock, so a
   * reference resolved before the lock still names its root after other entries came or went.
   */
  #locate(entries: readonly StoredEntry[], target: EntryIdentity): number {
    const same = (entry: StoredEntry | undefined, ordinal: number): boolean => {
      if (entry === undefined) return false
      const listed = listedEntry(entry, ordinal)
      return listed.id === target.id && listed.path === target.path
    }
    const at = target.ordinal - 1
    if (same(entries[at], target.ordinal)) return at
    const moved = entries.findIndex((entry, index) => same(entry, index + 1))
    if (moved < 0) throw new RootsError('not-found', `additional root ${target.ordinal} (${target.path}) is no longer registered; list the roots again`)
    return moved
  }

  /** Runs one read-modify-write of `primary`'s entries under the in-process queue and the file lock. */
  #mutate<T>(primary: string, change: (entries: readonly StoredEntry[]) => { readonly entries: readonly StoredEntry[]; readonly result: T }): Promise<T> {
    const run = async (): Promise<T> => {
      mkdirSync(this.#options.dshHome, { recursive: true })
      return withRegistryLock({ ...this.#options.lock, file: `${this.file}.lock` }, (hold) => {
        const read = readRegistry(this.file)
        if (read.state === 'unavailable') throw new RootsError('storage-unavailable', read.problem)
        const { entries, result } = change(parseEntries(read.primaries.get(primary) ?? []))
        const primaries = new Map(read.primaries)
        primaries.set(primary, entries.map(storedValue))
        hold.requireHeld()
        writeRegistry(this.file, primaries)
        return result
      })
    }
    // One mutation at a time per registry object; a failed one does not block the next.
    const next = this.#queue.then(run, run)
    this.#queue = next.catch(() => undefined)
    return next
  }
}

const invalidPlaceholder: StoredEntry = { kind: 'invalid', raw: null, reason: 'it is not an object' }

function describe(root: KnownRoot): string {
  return `additional root ${root.ordinal} (${root.path})`
}
