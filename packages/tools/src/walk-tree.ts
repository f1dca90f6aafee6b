/**
 * Directory walk through the fs port for glob and grep: depth-first, skipping `.git` and
 * `node_modules`, never following directory links (no loops), bounded by an entry budget.
 * Returns files and links (not directories or special nodes) with `/`-separated relative paths.
 */
import type { FileSystemPort, FsDirEntry } from '@dsh/contracts'
import { asFsError } from './tool-result.ts'

/** Directory names never descended into. */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['.git', 'node_modules'])

/** One file (or link) found by the walk. */
export interface WalkEntry {
  /** Path relative to the walk root, `/`-separated. */
  readonly relative: string
  /** Absolute path. */
  readonly absolute: string
  /** `file` or `symlink` (a link's target type is not looked at). */
  readonly type: FsDirEntry['type']
}

/** Outcome of a walk. */
export interface WalkResult {
  /** Files and links, sorted by relative path. */
  readonly entries: readonly WalkEntry[]
  /** False when the entry budget ran out before the tree was fully listed. */
  readonly complete: boolean
  /** Subdirectories that could not be listed (permissions, races). */
  readonly unreadableDirectories: number
}

/** Walks the directory at absolute `root`. A failure to list the root itself rejects. */
export async function walkTree(
  fs: FileSystemPort,
  root: string,
  options: { readonly signal: AbortSignal; readonly maxEntries: number },
): Promise<WalkResult> {
  const prefix = root.endsWith('/') ? root : `${root}/`
  const entries: WalkEntry[] = []
  const pending: string[] = ['']
  let seen = 0
  let unreadableDirectories = 0
  while (pending.length > 0) {
    const relativeDir = pending.pop() ?? ''
    const absoluteDir = relativeDir === '' ? root : `${prefix}${relativeDir}`
    let listing: readonly FsDirEntry[]
    try {
      listing = await fs.listDir(absoluteDir, options.signal)
    } catch (error) {
      // The root must be listable (the caller reports why not); a subdirectory that vanished or
      // is unreadable is counted and reported by the caller, never silently dropped. Aborts propagate.
      const code = asFsError(error)?.code
      if (relativeDir === '' || code === undefined || code === 'FS_ABORTED') throw error
      unreadableDirectories += 1
      continue
    }
    for (const entry of listing) {
      seen += 1
      if (seen > options.maxEntries) {
        return { entries: sortByPath(entries), complete: false, unreadableDirectories }
      }
      const relative = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`
      if (entry.type === 'directory') {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) pending.push(relative)
      } else if (entry.type === 'file' || entry.type === 'symlink') {
        entries.push({ relative, absolute: `${prefix}${relative}`, type: entry.type })
      }
    }
  }
  return { entries: sortByPath(entries), complete: true, unreadableDirectories }
}

function sortByPath(entries: readonly WalkEntry[]): WalkEntry[] {
  return entries.toSorted((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0))
}
