/**
 * Directory listing: entries sorted by name (code-unit order, locale independent) with their
 * types; links are reported as `symlink`, never followed.
 *
 * A directory whose size (`stat`) is at most {@link SMALL_DIR_BYTES} — one 4 KiB block on ext4,
 * about 200 entries on tmpfs — is read in one `readdirSync`: a small directory (a skills folder, a
 * package) costs no thread-pool round trip (the promise `readdir` waited ≈ 50 µs for a worker to
 * list seven entries) and no `Dir` object (Node 20 builds two promisified methods per `Dir`; in a
 * session, where this code runs cold, `opendirSync` and its reads took 77–90 µs against 45–49 µs
 * for `stat` and `readdirSync`). Any other directory (larger, or a size of 0, which some
 * filesystems report whatever a directory holds) is read with `opendirSync`: the first
 * {@link SYNC_ENTRIES} entries synchronously, the rest on the thread pool from where that stopped,
 * so a huge one never holds the event loop for more than those first entries.
 */
import { opendirSync, readdirSync, statSync, type Dir, type Dirent } from 'node:fs'
import type { FsDirEntry } from '@dsh/contracts'
import { requireAbsolute } from './canonical-path.ts'
import { FsError, systemErrorCode, throwIfAborted, toFsError } from './fs-error.ts'

/** Entries read before the listing moves to the thread pool. */
export const SYNC_ENTRIES = 256

/** Largest directory size (`st_size`, bytes) listed in one synchronous `readdirSync`. */
export const SMALL_DIR_BYTES = 4096

function entryOf(dirent: Dirent): FsDirEntry {
  const name = dirent.name
  if (dirent.isSymbolicLink()) return { name, type: 'symlink' }
  if (dirent.isFile()) return { name, type: 'file' }
  if (dirent.isDirectory()) return { name, type: 'directory' }
  return { name, type: 'other' }
}

function openFailure(error: unknown, path: string): FsError {
  if (systemErrorCode(error) === 'ENOTDIR') return new FsError('FS_NOT_A_FILE', path, 'is not a directory')
  return toFsError(error, path, 'list directory')
}

/** Reads the rest of `dir` on the thread pool, checking `signal` between entries. */
async function readRest(dir: Dir, entries: FsDirEntry[], path: string, signal: AbortSignal | undefined): Promise<void> {
  for (;;) {
    throwIfAborted(signal, path)
    const dirent = await dir.read()
    if (dirent === null) return
    entries.push(entryOf(dirent))
  }
}

/** The entries of a small directory in one read; `undefined` when it is not one (or changed under the look): the handle path decides. */
function smallDirectory(path: string): FsDirEntry[] | undefined {
  try {
    const stats = statSync(path, { throwIfNoEntry: false })
    if (stats === undefined || !stats.isDirectory() || stats.size === 0 || stats.size > SMALL_DIR_BYTES) return undefined
    return readdirSync(path, { withFileTypes: true }).map(entryOf)
  } catch {
    // Any failure here (a permission error, the directory removed or replaced between the two
    // calls) is not this shortcut's to report: the handle path below lists the directory or fails
    // with the error it meets, mapped as every listing's error is.
    return undefined
  }
}

/** Lists absolute directory `path`; `FS_NOT_FOUND` when missing, `FS_NOT_A_FILE` when not a directory. */
export async function listDirectory(path: string, signal?: AbortSignal): Promise<readonly FsDirEntry[]> {
  requireAbsolute(path)
  throwIfAborted(signal, path)
  const small = smallDirectory(path)
  if (small !== undefined) return sorted(small)
  let dir: Dir
  try {
    dir = opendirSync(path, { bufferSize: 64 })
  } catch (error) {
    throw openFailure(error, path)
  }
  const entries: FsDirEntry[] = []
  try {
    for (let count = 0; count < SYNC_ENTRIES; count++) {
      const dirent = dir.readSync()
      if (dirent === null) return sorted(entries)
      entries.push(entryOf(dirent))
    }
    await readRest(dir, entries, path, signal)
  } catch (error) {
    // A read failing midway (EIO, the directory removed under us) fails the whole listing.
    if (error instanceof FsError) throw error
    throw toFsError(error, path, 'list directory')
  } finally {
    closeDir(dir)
  }
  throwIfAborted(signal, path)
  return sorted(entries)
}

const sorted = (entries: readonly FsDirEntry[]): FsDirEntry[] => entries.toSorted((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))

/** Closes a directory handle; a failing close loses nothing (it was only read), so its error is dropped. */
function closeDir(dir: Dir): void {
  try {
    dir.closeSync()
  } catch {
    // Dropped on purpose: closing a read-only directory handle cannot lose data, and rethrowing
    // would mask the listing's own result or error.
  }
}
