/**
 * Precedent candidates for a file about to be written: the file itself when it exists, then
 * working siblings found by walking up the directory chain and asking at each level whether a
 * sibling directory carries the same relative path. For `…/node_modules/@scope/a/lib/index.js`
 * level 1 looks for `…/a/<sibling>/index.js`, level 2 for `…/@scope/<sibling>/lib/index.js`, and
 * so on for `scanLevels` levels, examining at most `entriesPerLevel` entries per level and
 * stopping at `maxCandidates`. Unreadable directories are skipped. The walk never lists a
 * directory outside `boundary` (the workspace root that holds the target), so a file of a
 * neighbouring repository is never offered as this one's precedent.
 */
import { basename, dirname, join } from 'node:path'
import type { FileSystemPort } from '@dsh/contracts'
import { isInside } from './document-probe.ts'

/** Options of {@link findPrecedents}. */
export interface PrecedentSearch {
  readonly target: string
  readonly scanLevels: number
  readonly entriesPerLevel: number
  readonly maxCandidates: number
  /** Directory the walk stays in (absent: no bound). */
  readonly boundary?: string | undefined
  readonly signal?: AbortSignal
}

async function isFile(fs: FileSystemPort, path: string, signal?: AbortSignal): Promise<boolean> {
  try {
    return (await fs.stat(path, signal))?.type === 'file'
  } catch (error) {
    // An unreadable candidate is not offered; a cancel ends the search.
    if (signal?.aborted === true) throw error
    return false
  }
}

async function listing(fs: FileSystemPort, dir: string, signal?: AbortSignal): Promise<readonly { name: string; type: string }[]> {
  try {
    return await fs.listDir(dir, signal)
  } catch (error) {
    // A directory that cannot be listed has no siblings to offer.
    if (signal?.aborted === true) throw error
    return []
  }
}

/** Finds up to `maxCandidates` precedents. */
export async function findPrecedents(fs: FileSystemPort, search: PrecedentSearch): Promise<string[]> {
  const { target, signal } = search
  const out: string[] = []
  if (search.maxCandidates <= 0) return out
  if (await isFile(fs, target, signal)) out.push(target)
  let dir = dirname(target)
  let rel = basename(target)
  for (let level = 1; level <= search.scanLevels && out.length < search.maxCandidates; level++) {
    const parent = dirname(dir)
    if (parent === dir || (search.boundary !== undefined && !isInside(search.boundary, parent))) break
    const own = basename(dir)
    for (const entry of (await listing(fs, parent, signal)).slice(0, search.entriesPerLevel)) {
      if (entry.name === own || entry.type !== 'directory') continue
      const candidate = join(parent, entry.name, rel)
      if (!out.includes(candidate) && (await isFile(fs, candidate, signal))) out.push(candidate)
      if (out.length >= search.maxCandidates) break
    }
    rel = join(own, rel)
    dir = parent
  }
  return out
}
