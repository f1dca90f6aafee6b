/**
 * The files of a skill folder for the `skill` tool result: folder-relative paths, breadth first,
 * at most `maxEntries` (the rest counted), at most three levels deep, links listed but not
 * followed. Listing failures leave a directory out. Rethrows only cancellation.
 */
import { join } from 'node:path'
import type { FileSystemPort } from '@dsh/contracts'

/** Result of a listing. */
export interface FolderListing {
  readonly files: readonly string[]
  /** Entries beyond `maxEntries`, not listed. */
  readonly more: number
}

const MAX_DEPTH = 3

/** Lists `folder`. */
export async function listFolder(fs: FileSystemPort, folder: string, maxEntries: number, signal?: AbortSignal): Promise<FolderListing> {
  const files: string[] = []
  let more = 0
  let level: string[] = ['']
  for (let depth = 0; depth < MAX_DEPTH && level.length > 0; depth++) {
    const next: string[] = []
    for (const rel of level) {
      let entries
      try {
        entries = await fs.listDir(rel === '' ? folder : join(folder, rel), signal)
      } catch (error) {
        // An unreadable sub-folder is left out of the listing; the model can still read what is listed.
        if (signal?.aborted === true) throw error
        continue
      }
      for (const entry of entries) {
        const path = rel === '' ? entry.name : `${rel}/${entry.name}`
        if (entry.type === 'directory') next.push(path)
        else if (files.length < maxEntries) files.push(entry.type === 'symlink' ? `${path} (link)` : path)
        else more += 1
      }
    }
    level = next
  }
  return { files, more }
}
