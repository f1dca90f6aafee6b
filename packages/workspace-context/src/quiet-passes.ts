/**
 * Quiet touch passes. A touch pass that took every directory from a settled record still holding
 * (`settled-examinations.ts`) and found nothing to say — no change, no same-file group, no stale
 * budget omission — is remembered with the state it ran under (the surface fold's version, the
 * budget omissions, the version memo's generation): its directories, their records, and the paths
 * of their instruction files. A later touch under the same state, with no pending messages, needs
 * only the one batch of version checks when each directory it examines has a remembered record, or
 * is not one every touch examines (not on the root-to-cwd chain, no loaded scope) and has a settled
 * record that found no candidate at all (nothing there, nothing loaded from there: nothing to say
 * whatever the state), and its `read` (if any) did not show one of the instruction files. When
 * every check holds, the full pass would take exactly those records again and reconcile them to
 * nothing again, so the touch says nothing without deriving or reconciling anything; the step's
 * record gets the examinations as after a full pass. Any other touch runs the full pass.
 */
import type { FileSystemPort } from '@dsh/contracts'
import type { DirRef } from './directories.ts'
import type { ReadDelivery } from './reconcile.ts'
import { stillHolding, type SettledExamination } from './settled-examinations.ts'
import type { SharedExaminations } from './step-share.ts'

/** What a quiet pass examined. */
export interface QuietPass {
  /** The state the pass ran under (see the module comment). */
  readonly state: string
  /** Directories every touch examines (the root-to-cwd chain and the loaded scopes' directories). */
  readonly base: readonly DirRef[]
  /** Directory key → the settled record the pass took. */
  readonly records: ReadonlyMap<string, SettledExamination>
}

/** Touch passes of one loop instance known to have nothing to say. */
export class QuietPasses {
  #state: string | undefined
  #base: readonly DirRef[] = []
  readonly #records = new Map<string, SettledExamination>()
  readonly #files = new Set<string>()
  /** Keys of directories already asked about: the base directories are the same objects at every touch. */
  readonly #keys = new WeakMap<DirRef, string>()

  #key(dir: DirRef, keyOf: (dir: DirRef) => string): string {
    let key = this.#keys.get(dir)
    if (key === undefined) {
      key = keyOf(dir)
      this.#keys.set(dir, key)
    }
    return key
  }

  /** Remembers `pass` (added to earlier quiet passes under the same state, replacing them otherwise). */
  remember(pass: QuietPass): void {
    if (pass.state !== this.#state) {
      this.#state = pass.state
      this.#records.clear()
      this.#files.clear()
    }
    this.#base = pass.base
    for (const [key, record] of pass.records) {
      this.#records.set(key, record)
      for (const o of record.examination.observations) {
        if (o.state !== 'present') continue
        this.#files.add(o.absPath)
        this.#files.add(o.target)
      }
    }
  }

  /** Forgets every quiet pass. */
  clear(): void {
    this.#state = undefined
    this.#records.clear()
    this.#files.clear()
  }

  /**
   * Whether a touch under `state` that examines the base directories, `extra` (directory keys by
   * `keyOf`) and the user-global directory (`globalKey`) is proven to have nothing to say. When it
   * is not, the records whose checks ran are returned with their verdicts, so the full pass does
   * not check them again.
   */
  async quiet(options: QuietQuery): Promise<{ readonly quiet: true } | { readonly quiet: false; readonly checked: ReadonlyMap<SettledExamination, boolean> }> {
    const none = { quiet: false as const, checked: new Map<SettledExamination, boolean>() }
    if (options.state !== this.#state) return none
    if (options.read !== undefined && this.#files.has(options.read.path)) return none
    const taken = new Map<string, SettledExamination>()
    const unchecked = new Set<SettledExamination>()
    const take = (key: string, record = this.#records.get(key)): boolean => {
      if (record === undefined) return false
      taken.set(key, record)
      // An earlier touch of this step took it after checking it (the step's record keeps it).
      if (options.shared?.get(key) !== record.examination) unchecked.add(record)
      return true
    }
    if (options.globalKey !== undefined && !take(options.globalKey)) return none
    const base = this.#base
    for (let index = 0; index < base.length; index++) {
      const dir = base[index]
      if (dir === undefined || !take(this.#key(dir, options.keyOf))) return none
    }
    for (const dir of options.extra) {
      const key = options.keyOf(dir)
      if (taken.has(key) || take(key)) continue
      const record = options.settledOf(dir)
      if (record === undefined || !record.examination.observations.every((o) => o.state === 'absent')) return none
      take(key, record)
    }
    const checking = [...unchecked]
    const holds = await stillHolding(options.fs, checking, options.signal)
    if (!holds.every((holding) => holding)) return { quiet: false, checked: new Map(checking.map((record, index) => [record, holds[index] === true])) }
    // Later touches of the step take these examinations from its record, as after a full pass.
    for (const [key, record] of taken) options.shared?.set(key, record.examination)
    return { quiet: true }
  }
}

/** A touch to judge (see {@link QuietPasses.quiet}). */
export interface QuietQuery {
  readonly state: string
  readonly extra: readonly DirRef[]
  /** Key of a directory: a pure function of it (`directoryKey`), so answers are remembered per directory object. */
  readonly keyOf: (dir: DirRef) => string
  /** The settled record of a directory outside the remembered ones, if any. */
  readonly settledOf: (dir: DirRef) => SettledExamination | undefined
  readonly globalKey: string | undefined
  readonly read: ReadDelivery | undefined
  /** The step's record of examinations (touches by read-only tools), read and extended. */
  readonly shared: SharedExaminations | undefined
  readonly fs: FileSystemPort
  readonly signal: AbortSignal | undefined
}
