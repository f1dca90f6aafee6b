/**
 * Orphan sweep of per-session document folders under `<cwd>/<docsDir>/`: a folder is an orphan
 * only when its name has the shape the session store gives ids (`YYYYMMDD-HHMMSS-xxxxxx`, so a
 * folder of the person's own, `notes/` or `write/`, is never taken for one), it is a real
 * directory (not a link), it is not a folder of the documents themselves (`maintainer/`), it holds
 * nothing but configured documents (anything else in it was put there by someone and is kept), no
 * live session of this process has that id, and the session store positively says the session no
 * longer exists. When the store cannot tell, nothing is removed. `remove` re-checks every folder at
 * the moment it deletes it; callers pass the names they previewed so nothing unseen is deleted.
 */
import { rm } from 'node:fs/promises'
import { join, normalize, sep } from 'node:path'
import type { FileSystemPort } from '@dsh/contracts'
import { isSafeRelativeName } from './document-paths.ts'
import type { SessionDirectory } from './session-directory.ts'

/** Why a folder is kept. */
export type KeepReason = 'documents folder' | 'not a session id' | 'a link' | 'holds other files' | 'live session' | 'session exists' | 'store unavailable'

/** The shape of the ids the session store creates (`20261201-101500-a1b2c3`). */
const STORE_SESSION_ID = /^\d{8}-\d{6}-[0-9a-f]{6}$/u

/** What a sweep would do. */
export interface SweepPreview {
  /** The documents folder swept. */
  readonly folder: string
  /** Folders of sessions that no longer exist. */
  readonly orphans: readonly string[]
  /** Folders kept, with why. */
  readonly kept: readonly { readonly name: string; readonly reason: KeepReason }[]
}

/** What it needs. */
export interface SweepContext {
  readonly fs: FileSystemPort
  readonly sessions: SessionDirectory
  /** Workspace documents folder (`<cwd>/<docsDir>`, canonical). */
  readonly folder: string
  /** Configured document names (their first segments are document folders). */
  readonly docs: readonly string[]
  /** Session ids live in this process. */
  readonly live: ReadonlySet<string>
}

/** True when `folder` holds only configured documents (and the folders they live in). */
async function holdsOnlyDocuments(context: SweepContext, folder: string): Promise<boolean> {
  const files = new Set(context.docs.filter(isSafeRelativeName).map((doc) => normalize(doc).split(sep).join('/')))
  const folders = new Set([...files].flatMap((file) => file.split('/').slice(0, -1).map((_part, index, parts) => parts.slice(0, index + 1).join('/'))))
  const visit = async (rel: string): Promise<boolean> => {
    for (const entry of await context.fs.listDir(rel === '' ? folder : join(folder, rel))) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`
      if (entry.type === 'file' && files.has(path)) continue
      if (entry.type === 'directory' && folders.has(path) && (await visit(path))) continue
      return false
    }
    return true
  }
  return visit('')
}

async function verdict(context: SweepContext, name: string, type: string): Promise<KeepReason | 'orphan'> {
  const documentFolders = new Set(context.docs.filter(isSafeRelativeName).map((doc) => doc.split(/[\\/]/u)[0]))
  if (documentFolders.has(name)) return 'documents folder'
  if (type === 'symlink') return 'a link'
  if (!STORE_SESSION_ID.test(name)) return 'not a session id'
  if (context.live.has(name)) return 'live session'
  const presence = context.sessions.presence(name)
  if (presence === 'present') return 'session exists'
  if (presence === 'unavailable') return 'store unavailable'
  const folder = join(context.folder, name)
  if ((await context.fs.lstat(folder))?.type !== 'directory') return 'a link'
  return (await holdsOnlyDocuments(context, folder)) ? 'orphan' : 'holds other files'
}

/** Lists orphans and kept folders. */
export async function previewSweep(context: SweepContext): Promise<SweepPreview> {
  if ((await context.fs.stat(context.folder))?.type !== 'directory') return { folder: context.folder, orphans: [], kept: [] }
  const orphans: string[] = []
  const kept: { name: string; reason: KeepReason }[] = []
  for (const entry of await context.fs.listDir(context.folder)) {
    if (entry.type !== 'directory' && entry.type !== 'symlink') continue
    const result = await verdict(context, entry.name, entry.type)
    if (result === 'orphan') orphans.push(entry.name)
    else kept.push({ name: entry.name, reason: result })
  }
  return { folder: context.folder, orphans, kept }
}

/** Removes the orphans among `names` (each re-checked now); returns the names removed. */
export async function removeOrphans(context: SweepContext, names: readonly string[]): Promise<string[]> {
  const removed: string[] = []
  for (const name of names) {
    const info = await context.fs.lstat(join(context.folder, name))
    if (info === undefined || (await verdict(context, name, info.type)) !== 'orphan') continue
    await rm(join(context.folder, name), { recursive: true })
    removed.push(name)
  }
  return removed
}
