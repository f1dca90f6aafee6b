/**
 * Directory listing: entries sorted by name (code-unit order, locale independent) with their
 * types; links are reported as `symlink`, never followed.
 */
import type { Dirent } from 'node:fs'
import { readdir } from 'node:fs/promises'
import type { FsDirEntry } from '@dsh/contracts'
import { requireAbsolute } from './canonical-path.ts'
import { FsError, systemErrorCode, throwIfAborted, toFsError } from './fs-error.ts'

function entryOf(dirent: Dirent): FsDirEntry {
  const name = dirent.name
  if (dirent.isSymbolicLink()) return { name, type: 'symlink' }
  if (dirent.isFile()) return { name, type: 'file' }
  if (dirent.isDirectory()) return { name, type: 'directory' }
  return { name, type: 'other' }
}

/** Lists absolute directory `path`; `FS_NOT_FOUND` when missing, `FS_NOT_A_FILE` when not a directory. */
export async function listDirectory(path: string, signal?: AbortSignal): Promise<readonly FsDirEntry[]> {
  requireAbsolute(path)
  throwIfAborted(signal, path)
  let dirents: Dirent[]
  try {
    dirents = await readdir(path, { withFileTypes: true })
  } catch (error) {
    if (systemErrorCode(error) === 'ENOTDIR') throw new FsError('FS_NOT_A_FILE', path, 'is not a directory')
    throw toFsError(error, path, 'list directory')
  }
  throwIfAborted(signal, path)
  return dirents.map(entryOf).toSorted((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}
