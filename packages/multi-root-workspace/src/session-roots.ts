/**
 * The roots of one live session (the contract's `SessionWorkspaceRoots`): the registered roots of
 * its primary root, then the roots granted to this session only (`--add-dir`), then — for a
 * delegated child — the session-only roots of its parent. Every listing re-checks the registry
 * and the disk and tells `onChange` listeners when something differs from the previous listing;
 * an unreadable registry is reported through `warn` once per distinct problem.
 */
import type { AddRootOptions, SessionWorkspaceRoots, WorkspaceRoot, WorkspaceRootsListing } from '@dsh/contracts'
import { RootsError } from './errors.ts'
import type { RootRegistry } from './root-registry.ts'
import { requireAlias, type RootRecord } from './root-record.ts'
import { resolveReference } from './root-reference.ts'
import { listedRecord } from './root-state.ts'
import { validateRoot } from './validate-root.ts'

/** Options of {@link SessionRoots}. */
export interface SessionRootsOptions {
  readonly registry: RootRegistry
  readonly sessionId: string
  /** Canonical primary root. */
  readonly primary: string
  /** The parent session's roots (delegated children), looked up at every listing. */
  readonly parent?: (() => SessionRoots | undefined) | undefined
  /** Clock for `addedAt`. */
  readonly clock?: () => Date
  /** OS home for `~` (tests). */
  readonly home?: string | undefined
  /** Told once per distinct registry problem, so an unreadable registry is never silent. */
  readonly warn?: ((line: string) => void) | undefined
}

const signatureOf = (listing: WorkspaceRootsListing): string =>
  JSON.stringify([listing.registryProblem ?? '', ...listing.roots.map((root) => [root.id, root.path, root.recordedPath, root.alias ?? '', root.state, root.origin])])

/** One session's roots. */
export class SessionRoots implements SessionWorkspaceRoots {
  readonly sessionId: string
  readonly primary: string
  readonly #options: SessionRootsOptions
  readonly #own: RootRecord[] = []
  readonly #listeners = new Set<(listing: WorkspaceRootsListing) => void>()
  #signature: string | undefined
  #reportedProblem: string | undefined
  #counter = 0

  constructor(options: SessionRootsOptions) {
    this.#options = options
    this.sessionId = options.sessionId
    this.primary = options.primary
  }

  /** Session-only records this session sees (its parent's first, then its own). */
  sessionRecords(): readonly RootRecord[] {
    const parent = this.#options.parent?.()
    return [...(parent?.sessionRecords() ?? []), ...this.#own]
  }

  list(): WorkspaceRootsListing {
    const registered = this.#options.registry.list(this.primary)
    const offset = registered.roots.length
    const session = this.sessionRecords().map((record, index) => listedRecord(record, offset + index + 1, 'session'))
    const listing: WorkspaceRootsListing = { primary: this.primary, roots: [...registered.roots, ...session], ...(registered.problem === undefined ? {} : { registryProblem: registered.problem }) }
    this.#notify(listing)
    this.#report(registered.problem)
    return listing
  }

  /** Warns once when the registry becomes unreadable (and again when the problem changes). */
  #report(problem: string | undefined): void {
    if (problem === this.#reportedProblem) return
    this.#reportedProblem = problem
    if (problem !== undefined) this.#options.warn?.(`${problem}; this session runs without its registered additional roots until it can be read`)
  }

  writableRoots(): readonly string[] {
    return this.list()
      .roots.filter((root) => root.state === 'available')
      .map((root) => root.recordedPath)
  }

  async add(path: string, options: AddRootOptions = {}): Promise<WorkspaceRoot> {
    const current = this.list()
    const others = current.roots.filter((root) => root.origin === 'session')
    const added = await this.#options.registry.add(this.primary, path, { alias: options.alias, others })
    this.list()
    return added
  }

  async addForSession(path: string, options: AddRootOptions = {}): Promise<WorkspaceRoot> {
    if (options.alias !== undefined) requireAlias(options.alias)
    const current = this.list()
    const valid = validateRoot({ primary: this.primary, path, known: current.roots, home: this.#options.home })
    const own = valid.reRecords === undefined ? undefined : this.#own.findIndex((record) => record.id === valid.reRecords?.id)
    if (valid.reRecords !== undefined && (own === undefined || own < 0)) throw new RootsError('duplicate', `${valid.path} is already additional root ${valid.reRecords.ordinal} (${valid.reRecords.path})`)
    const previous = own === undefined ? undefined : this.#own[own]
    const alias = options.alias ?? previous?.alias
    const record: RootRecord = {
      id: previous?.id ?? `session-${++this.#counter}`,
      path: valid.path,
      recordedPath: valid.canonical,
      addedAt: (this.#options.clock ?? (() => new Date()))().toISOString(),
      ...(alias === undefined ? {} : { alias }),
    }
    if (own !== undefined && own >= 0) this.#own.splice(own, 1, record)
    else this.#own.push(record)
    const listed = this.list().roots.find((root) => root.id === record.id && root.origin === 'session')
    return listed ?? listedRecord(record, 0, 'session')
  }

  async remove(reference: string): Promise<WorkspaceRoot> {
    const target = resolveReference(this.list().roots, reference, this.#options.home)
    if (target.origin === 'session') {
      this.#own.splice(this.#ownIndex(target), 1)
      this.list()
      return target
    }
    const removed = await this.#options.registry.remove(this.primary, target)
    this.list()
    return removed
  }

  async alias(reference: string, alias: string | undefined): Promise<WorkspaceRoot> {
    if (alias !== undefined) requireAlias(alias)
    const target = resolveReference(this.list().roots, reference, this.#options.home)
    if (target.origin === 'session') {
      const index = this.#ownIndex(target)
      const { alias: _old, ...rest } = this.#own[index] ?? target
      this.#own.splice(index, 1, alias === undefined ? rest : { ...rest, alias })
      return this.list().roots.find((root) => root.id === target.id && root.origin === 'session') ?? target
    }
    const changed = await this.#options.registry.alias(this.primary, target, alias)
    this.list()
    return changed
  }

  onChange(listener: (listing: WorkspaceRootsListing) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  #ownIndex(target: WorkspaceRoot): number {
    const index = this.#own.findIndex((record) => record.id === target.id)
    if (index < 0) throw new RootsError('invalid-ref', `additional root ${target.ordinal} (${target.path}) was given to the parent session; change it there`)
    return index
  }

  #notify(listing: WorkspaceRootsListing): void {
    const signature = signatureOf(listing)
    const changed = this.#signature !== undefined && this.#signature !== signature
    this.#signature = signature
    if (!changed) return
    for (const listener of this.#listeners) {
      try {
        listener(listing)
      } catch {
        // A listener must not throw (contract); a throwing one only misses this notification.
      }
    }
  }
}
