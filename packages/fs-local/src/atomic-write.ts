/**
 * Atomic file replacement beneath a writable root: the target's directory is opened through
 * `beneath-root.ts` (no link followed on any component, so a directory swapped for a link to
 * outside the roots fails the write instead of redirecting it), a temp file is created in that
 * open directory (`O_CREAT | O_EXCL | O_NOFOLLOW`), written and fsync'ed through its descriptor,
 * and renamed over the target inside the same open directory. Readers see the old or the new
 * content, never a mix; on any failure the temp file is removed and the old content stays. Keeps
 * the permission bits of an existing file. Temp files that dead writers left in the directory are
 * removed first (see stale-temp-files.ts).
 */
import { randomBytes } from 'node:crypto'
import { closeSync, constants, lstatSync, unlinkSync } from 'node:fs'
import { open, rename } from 'node:fs/promises'
import { basename, dirname, relative, sep } from 'node:path'
import type { FsVersion } from '@dsh/contracts'
import { atDirectory, openBeneath } from './beneath-root.ts'
import { FsError, systemErrorCode, throwIfAborted, toFsError } from './fs-error.ts'
import { isSpecialNode, versionOf, type NodeStats } from './node-info.ts'
import { probeDescriptor } from './probe.ts'
import { removeStaleTempFiles } from './stale-temp-files.ts'

/** Options of {@link writeAtomically}. */
export interface AtomicWriteOptions {
  /** Checked before each step; an abort before the rename keeps the old content. */
  readonly signal?: AbortSignal | undefined
  /** When set, the existing file must still have this version right before the rename. */
  readonly expectedVersion?: FsVersion
  /** The path as the caller wrote it, for error messages. */
  readonly displayPath: string
}

const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW

function tempNameFor(name: string): string {
  return `.${name.slice(0, 40)}.dsh-${process.pid}-${randomBytes(6).toString('hex')}.tmp`
}

/** The node at `name` in directory `fd`, unfollowed; undefined when nothing is there. */
function nodeAt(fd: number, name: string, displayPath: string): NodeStats | undefined {
  try {
    return lstatSync(atDirectory(fd, name))
  } catch (error) {
    // Nothing there yet: the write creates it. Anything else is a real failure.
    if (systemErrorCode(error) === 'ENOENT') return undefined
    throw toFsError(error, displayPath, 'lstat')
  }
}

function requireWritableNode(fd: number, name: string, options: AtomicWriteOptions): NodeStats | undefined {
  const existing = nodeAt(fd, name, options.displayPath)
  if (existing === undefined) return undefined
  const { displayPath } = options
  if (existing.isSymbolicLink()) throw new FsError('FS_NOT_A_FILE', displayPath, 'is a symbolic link that does not lead to a file inside the writable roots (dangling, or just replaced)')
  if (existing.isDirectory()) throw new FsError('FS_NOT_A_FILE', displayPath, 'is a directory, not a file')
  if (isSpecialNode(existing) || !existing.isFile()) {
    throw new FsError('FS_SPECIAL_FILE', displayPath, 'is a FIFO, socket or device; refusing to write')
  }
  if (options.expectedVersion !== undefined && versionOf(existing) !== options.expectedVersion) {
    throw new FsError('FS_CONFLICT', displayPath, 'changed on disk while it was being edited')
  }
  return existing
}

/** The components of `target`'s directory below `root` (both canonical, target inside root). */
function componentsBelow(root: string, target: string, displayPath: string): string[] {
  const inside = relative(root, dirname(target))
  if (target === root || inside.startsWith('..')) throw new FsError('FS_NOT_A_FILE', displayPath, 'is a writable root directory, not a file')
  return inside === '' ? [] : inside.split(sep)
}

/** Replaces canonical `target`, which lies inside canonical writable `root`, with `bytes`; creates parent directories. */
export async function writeAtomically(
  root: string,
  target: string,
  bytes: Uint8Array,
  options: AtomicWriteOptions,
): Promise<{ readonly version: FsVersion; readonly created: boolean }> {
  const { signal, displayPath } = options
  throwIfAborted(signal, displayPath)
  const name = basename(target)
  const dir = openBeneath(root, componentsBelow(root, target, displayPath), { create: true, displayPath })
  try {
    const existing = requireWritableNode(dir, name, options)
    await removeStaleTempFiles(`/proc/self/fd/${dir}`)
    const temp = tempNameFor(name)
    let version: FsVersion
    try {
      const handle = await open(atDirectory(dir, temp), TEMP_FLAGS, 0o666)
      try {
        // chmod after the open: the open's mode is masked by the umask, the old file's mode is not.
        if (existing !== undefined) await handle.chmod(Number(existing.mode) & 0o7777)
        await handle.writeFile(bytes)
        await handle.sync()
        throwIfAborted(signal, displayPath)
        requireWritableNode(dir, name, options)
        await rename(atDirectory(dir, temp), atDirectory(dir, name))
        // The version of what was written: the renamed inode, through the descriptor still open.
        version = versionOf(probeDescriptor(handle.fd))
      } finally {
        await handle.close()
      }
    } catch (error) {
      removeTemp(dir, temp)
      throw toFsError(error, displayPath, 'write')
    }
    return { version, created: existing === undefined }
  } finally {
    closeSync(dir)
  }
}

function removeTemp(dir: number, temp: string): void {
  try {
    unlinkSync(atDirectory(dir, temp))
  } catch {
    // Cleanup after a failed write: the temp file may never have been created (open failed) or
    // may already be renamed; the write's own error is what the caller needs, so this is dropped.
  }
}
