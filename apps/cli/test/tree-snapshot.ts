// A byte-for-byte picture of a directory tree (type, mode, content digest of every entry but .git).
import { createHash } from 'node:crypto'
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { join } from 'node:path'

/** Every entry under `root` except `.git`: type, mode and content digest. */
export function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (relative: string): void => {
    for (const name of readdirSync(join(root, relative)).toSorted()) {
      if (relative === '' && name === '.git') continue
      const path = relative === '' ? name : `${relative}/${name}`
      const stats = lstatSync(join(root, path))
      if (stats.isDirectory()) walk(path)
      else if (stats.isSymbolicLink()) out[path] = `link ${readlinkSync(join(root, path))}`
      else out[path] = `${(stats.mode & 0o7777).toString(8)} ${createHash('sha256').update(readFileSync(join(root, path))).digest('hex')}`
    }
  }
  walk('')
  return out
}

