/**
 * Keeps shell commands from changing the executable files of the roots (executable-files.ts)
 * beyond the few the sandbox binds read-only: bubblewrap's cost grows with the square of its
 * mounts (about 5 ms for 32 file binds, 340 ms for 500), so at most {@link MAX_BOUND_EXECUTABLES}
 * are bound and the rest are guarded by content. The first launch that sees a file keeps a copy
 * (regular files up to {@link MAX_KEPT_FILE_BYTES}, {@link MAX_KEPT_BYTES} in all) and its
 * identity (device, inode, size, change time to the microsecond, mode: a write or `chmod` always moves the change
 * time, which no command can set back). {@link check} names each kept file whose identity moved and
 * whose bytes or mode differ (a `touch` is no change); the caller moves the command's version
 * away and {@link restore} writes the copy back. Files are guarded for the rest of the session,
 * also when the index stops calling them executable, so `git update-index --chmod=-x` in one
 * command does not open them to the next.
 *
 * Whose change it was: a change while a command ran, or while a sandbox of this dsh was still
 * running (background processes), is put back; a change between commands while none ran is the
 * user's or dsh's own and becomes the copy ({@link settle}). What dsh writes itself (the
 * `write`/`edit` tools after the policy's question) is taken once ({@link allow}).
 */
import { lstatSync } from 'node:fs'
import { readSmallFile } from '@dsh/runtime'
import { putBack, type KeptCopy } from './put-back.ts'

/** Most executables bound read-only per launch (the rest are guarded by content). */
export const MAX_BOUND_EXECUTABLES = 16
/** Largest file a copy is kept of. */
export const MAX_KEPT_FILE_BYTES = 4 * 1024 * 1024
/** Most bytes kept in all. */
export const MAX_KEPT_BYTES = 64 * 1024 * 1024

interface Kept extends KeptCopy {
  stamp: string
}

/** The identity of a regular file now, or undefined when none stands there. */
function stampOf(path: string): { stamp: string; size: number; mode: number } | undefined {
  try {
    // Microseconds of change time are enough: a command starts milliseconds after the stamp.
    const stat = lstatSync(path)
    if (!stat.isFile()) return undefined
    const mode = stat.mode & 0o7777
    return { stamp: `${stat.dev}:${stat.ino}:${stat.size}:${stat.ctimeMs}:${mode}`, size: stat.size, mode }
  } catch {
    // Gone or unreachable: no file there.
    return undefined
  }
}

/** Copies of the guarded executables and the check against them. */
export class ExecutableGuard {
  readonly #kept = new Map<string, Kept>()
  /** Known executables no copy could be kept of (too big): bound first. */
  readonly #uncopied = new Set<string>()
  readonly #allowed = new Set<string>()
  #bytes = 0

  /** dsh itself writes `path` after asking: its next change is taken, not put back. */
  allow(path: string): void {
    this.#allowed.add(path)
  }

  #keep(path: string): void {
    const now = stampOf(path)
    if (now === undefined) return
    if (now.size > MAX_KEPT_FILE_BYTES || this.#bytes + now.size > MAX_KEPT_BYTES) {
      this.#uncopied.add(path)
      return
    }
    // Unreadable to dsh (mode 0111), or no longer a regular file (a FIFO would block the read): it cannot be put back, so it is bound instead.
    const read = readSmallFile(path, { maxBytes: MAX_KEPT_FILE_BYTES, follow: false })
    if (read.kind !== 'file') {
      this.#uncopied.add(path)
      return
    }
    const bytes = read.bytes
    this.#kept.set(path, { bytes, mode: now.mode, stamp: now.stamp })
    this.#uncopied.delete(path)
    this.#bytes += bytes.length
  }

  #drop(path: string): void {
    const kept = this.#kept.get(path)
    if (kept !== undefined) this.#bytes -= kept.bytes.length
    this.#kept.delete(path)
    this.#uncopied.delete(path)
  }

  /**
   * Starts guarding `found` (the roots' executables now, shallowest first); what is guarded
   * already keeps its copy. Returns the ones to bind read-only this launch: those without a copy
   * first, then the shallowest, at most {@link MAX_BOUND_EXECUTABLES}.
   */
  observe(found: readonly string[]): string[] {
    for (const path of found) if (!this.#kept.has(path) && !this.#uncopied.has(path)) this.#keep(path)
    const listed = new Set(found)
    const known = [...this.#uncopied, ...found.filter((path) => !this.#uncopied.has(path)), ...[...this.#kept.keys()].filter((path) => !listed.has(path))]
    const bound: string[] = []
    for (const path of known) {
      if (bound.length >= MAX_BOUND_EXECUTABLES) break
      if (stampOf(path) !== undefined) bound.push(path)
    }
    return bound
  }

  /** Takes every change made since the last check as the user's: changed files get a new copy, gone or no longer executable ones leave the guard. */
  settle(): void {
    for (const [path, kept] of this.#kept) {
      const now = stampOf(path)
      if (now?.stamp === kept.stamp) continue
      this.#drop(path)
      if (now !== undefined && (now.mode & 0o111) !== 0) this.#keep(path)
    }
    this.#allowed.clear()
  }

  /** Whether `path` is guarded already (its stamp is checked anyway). */
  has(path: string): boolean {
    return this.#kept.has(path) || this.#uncopied.has(path)
  }

  /** The guarded files changed, replaced or removed since the last check (dsh's own writes are taken as they are). */
  check(): string[] {
    const changed: string[] = []
    for (const [path, kept] of this.#kept) {
      const now = stampOf(path)
      if (now?.stamp === kept.stamp) continue
      if (now !== undefined && now.mode === kept.mode && this.#same(path, kept.bytes)) {
        kept.stamp = now.stamp
        continue
      }
      if (!this.#allowed.delete(path)) {
        changed.push(path)
        continue
      }
      this.#drop(path)
      if (now !== undefined) this.#keep(path)
    }
    return changed
  }

  #same(path: string, bytes: Buffer): boolean {
    // Unreadable now (mode changed to 0111, gone again, or a FIFO or link in its place): not what was kept.
    const read = readSmallFile(path, { maxBytes: MAX_KEPT_FILE_BYTES, follow: false })
    return read.kind === 'file' && read.bytes.equals(bytes)
  }

  /** Writes the kept copy of `path` back (after the caller moved the command's version away). */
  restore(path: string): void {
    const kept = this.#kept.get(path)
    if (kept === undefined) return
    putBack(path, kept)
    const now = stampOf(path)
    if (now !== undefined) kept.stamp = now.stamp
  }

  /** How many files are guarded by content (the launcher looks for live sandboxes only then). */
  get size(): number {
    return this.#kept.size
  }
}
