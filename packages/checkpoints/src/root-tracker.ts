/**
 * What the session knows about the files of one writable root: for each file that is not ignored,
 * its stat key (size, mtime, ctime, inode, mode) and where its current content can be read back —
 * an object in the session's store, or, for a tracked file that matched its index entry when first
 * seen, the object in the repository's own database (read-only). `sync` finds what changed since
 * the last sync — the paths a {@link ChangeWatch} saw change, or, when the watch lost track, a
 * full listing — compares their stat keys, stores the new contents and returns each change with
 * the state before it. Only changed files are read.
 */
import { join } from 'node:path'
import { createHash } from 'node:crypto'
import { type Stats } from 'node:fs'
import { readSmallFile } from '@dsh/runtime'
import type { ByteBudget } from './byte-budget.ts'
import type { FileState } from './checkpoint-types.ts'
import { captureState, lstatOrAbsent } from './file-state.ts'
import { ChangeWatch } from './change-watch.ts'
import { GitReader } from './git-reader.ts'
import type { ObjectStore } from './object-store.ts'
import { walkFiles } from './tree-walk.ts'

interface Known {
  readonly key: string
  /** The content as stored, or a repository object id to copy from when it is needed. */
  readonly state: FileState | { readonly kind: 'git'; readonly oid: string; readonly size: number; readonly mode: number }
}

/** One change found by a sync. */
export interface RootChange {
  readonly path: string
  readonly before: FileState
  readonly after: FileState
}

/** Most non-ignored files a root may have for its shell changes to be captured. */
export const MAX_TRACKED_FILES = 100_000
/** Most bytes the first look at a root stores (files git cannot give back: untracked, modified, or all outside git). */
export const FIRST_LOOK_BYTES = 256 * 1024 * 1024

const statKey = (stats: Stats): string => `${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}:${stats.ino}:${stats.mode}`

/** Options of a tracker. */
export interface RootTrackerOptions {
  readonly root: string
  readonly store: ObjectStore
  readonly maxFileBytes: number
  readonly budget: ByteBudget
}

/** The known state of one root. */
export class RootTracker {
  readonly root: string
  readonly #options: RootTrackerOptions
  readonly #known = new Map<string, Known>()
  /** The root's repository; undefined outside one. */
  readonly #git: GitReader | undefined
  #primed = false
  #tooBig = false
  #watch: ChangeWatch | undefined

  constructor(options: RootTrackerOptions) {
    this.#options = options
    this.root = options.root
    const reader = new GitReader(options.root)
    this.#git = reader.probe() === 'present' ? reader : undefined
  }

  #list(): string[] {
    return this.#git?.listUnignored() ?? walkFiles(this.root)
  }

  /** First look: every file's key, stored content only for what the repository cannot give back. */
  #prime(): void {
    const clean = this.#git?.cleanTrackedObjects() ?? new Map<string, string>()
    const listed = this.#list()
    this.#primed = true
    if (listed.length > MAX_TRACKED_FILES) {
      this.#tooBig = true
      return
    }
    let firstLook = 0
    for (const path of listed) {
      const stats = lstatOrAbsent(join(this.root, path))
      if (stats === undefined) continue
      const oid = clean.get(path)
      const mode = stats.mode & 0o7777
      if (oid !== undefined && stats.isFile()) this.#known.set(path, { key: statKey(stats), state: { kind: 'git', oid, size: stats.size, mode } })
      else if (firstLook + stats.size > FIRST_LOOK_BYTES) this.#known.set(path, { key: statKey(stats), state: { kind: 'not-kept', reason: 'first-look-limit', size: stats.size, mode } })
      else {
        const state = this.#capture(path)
        if (state.kind === 'file') firstLook += state.size
        this.#known.set(path, { key: statKey(stats), state })
      }
    }
  }

  /** True when the root has more files than are tracked ({@link MAX_TRACKED_FILES}): shell changes there are not captured. */
  get tooBig(): boolean {
    return this.#tooBig
  }

  #capture(path: string): FileState {
    const { maxFileBytes, store, budget } = this.#options
    try {
      return captureState(join(this.root, path), store, maxFileBytes, budget).state
    } catch {
      // Unreadable (EACCES) or gone mid-read: its content cannot be kept; it is named as not restorable.
      return { kind: 'not-kept', reason: 'not-a-file', size: 0, mode: 0 }
    }
  }

  /** The stored form of a known state (copies a repository object into the store on demand). */
  #materialize(known: Known): FileState {
    const { state } = known
    if (state.kind !== 'git') return state
    const bytes = this.#git?.readObject(state.oid)
    if (bytes === undefined) return { kind: 'not-kept', reason: 'not-a-file', size: state.size, mode: state.mode }
    const { blob, added } = this.#options.store.put(bytes)
    this.#options.budget.spend(added)
    return { kind: 'file', blob, size: bytes.length, mode: state.mode }
  }

  /** Re-examines what may have changed since the last sync; returns the changes (nothing on the first sync). */
  async sync(): Promise<RootChange[]> {
    if (!this.#primed) {
      // Watching starts before the first listing, so nothing changed in between goes unseen.
      this.#watch = new ChangeWatch(this.root)
      this.#prime()
      if (this.#tooBig) this.#watch.close()
      return []
    }
    if (this.#tooBig) return []
    await this.#watch?.settled()
    const watch = this.#watch
    if (watch === undefined || !watch.healthy) {
      const changes = this.#fullScan()
      watch?.reset()
      return changes
    }
    const changes: RootChange[] = []
    // A path the watch saw is compared by content: a same-size rewrite within one timestamp tick keeps the stat key.
    for (const path of this.#candidates(watch)) this.#examine(path, changes, false)
    return changes.filter((change) => !sameContent(change.before, change.after))
  }

  /** Paths the watch saw change: files, everything under changed directories, known files under gone ones. */
  #candidates(watch: ChangeWatch): Set<string> {
    const isDirectory = (relative: string): boolean => lstatOrAbsent(join(this.root, relative))?.isDirectory() === true
    const candidates = new Set<string>()
    const prefixes: string[] = []
    for (const path of watch.drain(isDirectory)) {
      const stats = lstatOrAbsent(join(this.root, path))
      if (stats?.isDirectory() === true) for (const inner of walkFiles(join(this.root, path))) candidates.add(path === '' ? inner : `${path}/${inner}`)
      if (stats === undefined || stats.isDirectory()) prefixes.push(path === '' ? '' : `${path}/`)
      if (stats === undefined || !stats.isDirectory()) candidates.add(path)
    }
    if (prefixes.length > 0) for (const known of this.#known.keys()) if (prefixes.some((prefix) => known.startsWith(prefix))) candidates.add(known)
    const fresh = [...candidates].filter((path) => !this.#known.has(path) && path !== '')
    const ignored = this.#git?.ignoredAmong(fresh) ?? new Set<string>()
    for (const path of ignored) candidates.delete(path)
    candidates.delete('')
    return candidates
  }

  /** Compares one path with what is known (by stat key, or by content when `trustKey` is false); records a change. */
  #examine(path: string, changes: RootChange[], trustKey = true): void {
    const stats = lstatOrAbsent(join(this.root, path))
    const known = this.#known.get(path)
    if (stats === undefined || stats.isDirectory()) {
      if (known === undefined) return
      changes.push({ path: join(this.root, path), before: this.#materialize(known), after: { kind: 'absent' } })
      this.#known.delete(path)
      return
    }
    const key = statKey(stats)
    if (known?.key === key && (trustKey || unchangedRepositoryFile(join(this.root, path), known, stats))) return
    const after = this.#capture(path)
    const before: FileState = known === undefined ? { kind: 'absent' } : this.#materialize(known)
    this.#known.set(path, { key, state: after })
    changes.push({ path: join(this.root, path), before, after })
  }

  /** Re-lists the whole root (no watch, or one that lost track). */
  #fullScan(): RootChange[] {
    const changes: RootChange[] = []
    const seen = new Set<string>()
    for (const path of this.#list()) {
      if (lstatOrAbsent(join(this.root, path)) === undefined) continue
      seen.add(path)
      this.#examine(path, changes)
    }
    for (const path of this.#known.keys()) {
      // Not listed but still there: it became ignored, or dsh wrote it where the listing never looks.
      if (seen.has(path) || lstatOrAbsent(join(this.root, path)) !== undefined) continue
      this.#examine(path, changes)
    }
    return changes.filter((change) => !sameContent(change.before, change.after))
  }

  /** Stops watching. */
  close(): void {
    this.#watch?.close()
  }

  /** Records that dsh itself left `state` at `path` (a write or an edit), so the next sync sees no change there. */
  note(absolutePath: string, state: FileState): void {
    const path = absolutePath.slice(this.root.length + 1)
    const stats = lstatOrAbsent(absolutePath)
    if (stats === undefined) this.#known.delete(path)
    else if (this.#primed) this.#known.set(path, { key: statKey(stats), state })
  }
}

/** Whether a file still holds the repository object it was known by (same mode, same git blob hash). */
function unchangedRepositoryFile(path: string, known: Known, stats: Stats): boolean {
  if (known.state.kind !== 'git' || !stats.isFile() || (stats.mode & 0o7777) !== known.state.mode) return false
  // Read without following and without blocking; anything but that regular file now is a change.
  const read = readSmallFile(path, { maxBytes: Math.max(stats.size, 0) + 1024 * 1024, follow: false })
  if (read.kind !== 'file') return false
  const bytes = read.bytes
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex') === known.state.oid
}

/** A change whose content and mode are the same on both sides (only the time moved) is no change. */
function sameContent(before: FileState, after: FileState): boolean {
  if (before.kind === 'file' && after.kind === 'file') return before.blob === after.blob && before.mode === after.mode
  return false
}
