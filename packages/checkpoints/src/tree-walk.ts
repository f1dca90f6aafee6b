/**
 * Listing the files of a root that is not in a git repository: a walk that skips version-control
 * directories, dependency folders and common build outputs, bounded to a number of entries.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'

/** Directory names never walked into (outside git the ignore rules are these). */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['.git', '.hg', '.svn', 'node_modules', 'dist', 'build', 'out', 'target', '.next', '.cache', 'coverage', '__pycache__', '.venv', '.dsh'])

/** Most entries a walk visits before it stops (files past it are not captured). */
export const WALK_LIMIT = 200_000

/** Relative paths of the regular files and links under `root`. */
export function walkFiles(root: string, limit = WALK_LIMIT): string[] {
  const found: string[] = []
  const pending: string[] = ['']
  for (let relative = pending.pop(); relative !== undefined && found.length < limit; relative = pending.pop()) {
    let entries
    try {
      entries = readdirSync(join(root, relative), { withFileTypes: true })
    } catch {
      // A directory that vanished or cannot be read holds nothing we can capture.
      continue
    }
    for (const entry of entries) {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) pending.push(path)
      } else if (entry.isFile() || entry.isSymbolicLink()) found.push(path)
    }
  }
  return found
}
