/**
 * Change notification for one root: a non-recursive `fs.watch` (inotify on Linux) on every
 * directory that is walked (the skipped names of tree-walk.ts are never watched), collecting the
 * relative paths that changed since the last drain. New directories get watches when their
 * creation is seen (and are listed whole then, since files may land in them before the watch).
 * `settled()` waits one event-loop poll, by which time every event the kernel queued before the
 * call (a finished command's writes) has been read. The watch is `unhealthy` once a watch could
 * not be added or a burst was too big to trust; its owner then falls back to a full scan.
 */
import { watch, type FSWatcher } from 'node:fs'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { SKIPPED_DIRECTORIES } from './tree-walk.ts'

/** Most directories watched per root; past it the owner lists the root instead. */
export const MAX_WATCHED_DIRECTORIES = 20_000

/** Most paths collected between drains before the watch stops trusting itself (inotify's queue holds 16384 events by default). */
export const BURST_LIMIT = 4000

/** Watches of one root. */
export class ChangeWatch {
  readonly #root: string
  readonly #watchers = new Map<string, FSWatcher>()
  #dirty = new Set<string>()
  #healthy = true

  constructor(root: string) {
    this.#root = root
    this.#add('')
  }

  /** Whether every change since the last drain is known. */
  get healthy(): boolean {
    return this.#healthy
  }

  #add(relative: string): void {
    if (this.#watchers.has(relative) || !this.#healthy) return
    if (this.#watchers.size >= MAX_WATCHED_DIRECTORIES) {
      this.#healthy = false
      return
    }
    let entries
    try {
      const watcher = watch(join(this.#root, relative), { persistent: false }, (_event, name) => this.#seen(relative, name))
      watcher.on('error', () => {
        // The directory went away (or the watch broke): its parent's event marks it; drop the watch.
        this.#watchers.get(relative)?.close()
        this.#watchers.delete(relative)
        this.#dirty.add(relative)
      })
      this.#watchers.set(relative, watcher)
      entries = readdirSync(join(this.#root, relative), { withFileTypes: true })
    } catch (error) {
      // ENOSPC (out of inotify watches), EACCES, or gone: the root cannot be watched whole.
      const code: unknown = typeof error === 'object' && error !== null ? Reflect.get(error, 'code') : undefined
      if (code !== 'ENOENT' && code !== 'ENOTDIR') this.#healthy = false
      return
    }
    for (const entry of entries) if (entry.isDirectory() && !SKIPPED_DIRECTORIES.has(entry.name)) this.#add(relative === '' ? entry.name : `${relative}/${entry.name}`)
  }

  #seen(directory: string, name: string | Buffer | null): void {
    if (name === null) {
      // No name: something in the directory changed; treat the whole directory as changed.
      this.#dirty.add(directory)
      return
    }
    const text = typeof name === 'string' ? name : name.toString('utf8')
    if (SKIPPED_DIRECTORIES.has(text)) return
    this.#dirty.add(directory === '' ? text : `${directory}/${text}`)
    if (this.#dirty.size > BURST_LIMIT) this.#healthy = false
  }

  /** Resolves after one poll of the event loop (see the module header). */
  async settled(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve))
    await new Promise((resolve) => setImmediate(resolve))
  }

  /** The changed paths since the last drain; new directories among them get watches. */
  drain(isDirectory: (relative: string) => boolean): string[] {
    const dirty = [...this.#dirty]
    this.#dirty = new Set()
    for (const path of dirty) if (isDirectory(path)) this.#add(path)
    return dirty
  }

  /** Closes every watch. */
  close(): void {
    for (const watcher of this.#watchers.values()) watcher.close()
    this.#watchers.clear()
  }

  /** Starts over after a full scan: healthy again, nothing dirty. */
  reset(): void {
    this.close()
    this.#healthy = true
    this.#dirty = new Set()
    this.#add('')
  }
}
