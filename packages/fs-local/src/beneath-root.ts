/**
 * Directory walks the kernel keeps beneath a writable root, with no link followed on the way: the
 * root is opened once, and each component below it is opened through `/proc/self/fd/<dir>/<name>`
 * with `O_NOFOLLOW | O_DIRECTORY`. `/proc/self/fd/<dir>` is a magic link to the already open
 * directory itself, so nothing above it is looked up again by name, and a component that is (or
 * has just been swapped for) a symbolic link fails with ELOOP/ENOTDIR instead of being followed.
 * Node has no `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)`; this is the pure-Node equivalent
 * (decision note 2026-12-01-kernel-enforced-writes.md). Without `/proc` writes fail closed.
 */
import { closeSync, constants, existsSync, mkdirSync, openSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import { FsError, systemErrorCode, toFsError } from './fs-error.ts'

const DIRECTORY = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW

/** The path that names `name` inside the open directory `fd` (no lookup above `fd`). */
export const atDirectory = (fd: number, name: string): string => `/proc/self/fd/${fd}/${name}`

/** Throws `FS_IO` when `/proc/self/fd` is not available: race-free writes need it. */
function requireProc(displayPath: string): void {
  if (!existsSync('/proc/self/fd')) {
    throw new FsError('FS_IO', displayPath, 'writes need /proc (mounted at /proc) to open paths beneath a root without following links, and it is missing; refusing to write')
  }
}

function linkRefusal(component: string, displayPath: string, cause: unknown): FsError {
  return new FsError('FS_OUTSIDE_ROOTS', displayPath, `the directory ${JSON.stringify(component)} on the way is a symbolic link or not a directory (it may have just been replaced); refusing to write through it`, { cause })
}

/** Opens `name` inside directory `parent` as a directory, never following a link. */
function openChild(parent: number, name: string, create: boolean, displayPath: string): number {
  try {
    return openSync(atDirectory(parent, name), DIRECTORY)
  } catch (error) {
    const code = systemErrorCode(error)
    if (code === 'ELOOP' || code === 'ENOTDIR') throw linkRefusal(name, displayPath, error)
    if (code !== 'ENOENT' || !create) throw toFsError(error, displayPath, 'open parent directory')
  }
  try {
    mkdirSync(atDirectory(parent, name), 0o777)
  } catch (error) {
    // EEXIST: something appeared there meanwhile; the open below decides whether it is usable.
    if (systemErrorCode(error) !== 'EEXIST') throw toFsError(error, displayPath, 'create parent directories')
  }
  try {
    return openSync(atDirectory(parent, name), DIRECTORY)
  } catch (error) {
    const code = systemErrorCode(error)
    if (code === 'ELOOP' || code === 'ENOTDIR') throw linkRefusal(name, displayPath, error)
    throw toFsError(error, displayPath, 'open parent directory')
  }
}

/**
 * Opens the directory `components` below canonical `root` (creating missing ones when `create`)
 * and returns its descriptor; the caller closes it. Each intermediate descriptor is closed here.
 */
export function openBeneath(root: string, components: readonly string[], options: { readonly create: boolean; readonly displayPath: string }): number {
  const { displayPath } = options
  requireProc(displayPath)
  // A root that does not exist yet (a documents folder) is created like the rest, below its
  // deepest existing ancestor.
  let base = root
  const missing: string[] = []
  let fd: number
  for (;;) {
    try {
      fd = openSync(base, constants.O_RDONLY | constants.O_DIRECTORY)
      break
    } catch (error) {
      const parent = dirname(base)
      if (systemErrorCode(error) !== 'ENOENT' || !options.create || parent === base) throw toFsError(error, displayPath, 'open writable root')
      missing.unshift(basename(base))
      base = parent
    }
  }
  for (const name of [...missing, ...components]) {
    if (name === '' || name === '.' || name === '..' || name.includes('/')) {
      closeSync(fd)
      throw new FsError('FS_OUTSIDE_ROOTS', displayPath, `unexpected path component ${JSON.stringify(name)}`)
    }
    let child: number
    try {
      child = openChild(fd, name, options.create, displayPath)
    } finally {
      // The parent is no longer needed whether the child opened or not.
      closeSync(fd)
    }
    fd = child
  }
  return fd
}
