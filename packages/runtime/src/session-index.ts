/**
 * The listing index: `<sessions>/.list-index.json`, a cache of one {@link SessionScan} per session
 * file, keyed by file name, with the inode, size and mtime the scan saw.
 *
 * - An entry whose inode, size and mtime still match is used without opening the file.
 * - Otherwise the file is scanned on from the entry's offset (it only grows), or from the start
 *   when it was replaced, truncated or rewritten.
 * - The index is only ever a cache: a missing, unreadable or foreign index is rebuilt, a failed
 *   write is ignored, and concurrent writers each replace it whole (temp file + rename), so the
 *   worst a race costs is a rescan on the next listing.
 */
import { randomUUID } from 'node:crypto'
import { renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { errnoCode } from './errors.ts'
import { readRegularFile } from './file-io.ts'
import type { SessionScan } from './session-scan.ts'
import { sessionHeaderSchema } from './session-schema.ts'

/** File name of the index inside the sessions directory (never a session id: ids cannot start with a dot). */
export const INDEX_FILE = '.list-index.json'

/** One cached scan and the file identity it belongs to. */
export interface IndexEntry {
  readonly scan: SessionScan
  readonly ino: number
  readonly size: number
  readonly mtimeMs: number
}

const entrySchema = z.object({
  ino: z.number(),
  size: z.number(),
  mtimeMs: z.number(),
  scan: z.object({
    header: sessionHeaderSchema,
    bodyStart: z.number().int().min(0),
    offset: z.number().int().min(0),
    tail: z.string(),
    eventCount: z.number().int().min(0),
    turnCount: z.number().int().min(0),
    title: z.string().optional(),
  }),
})

const indexSchema = z.object({ version: z.literal(1), entries: z.record(z.string(), z.unknown()) })

/** Reads the index; entries that do not validate are left out (their files are rescanned). */
export function readIndex(directory: string): Map<string, IndexEntry> {
  const entries = new Map<string, IndexEntry>()
  let text: string | undefined
  try {
    text = readRegularFile(join(directory, INDEX_FILE))
  } catch (error) {
    // No index yet (first listing) or none readable (ENOTDIR: the sessions directory is not one, which
    // listing the directory reports): every file is scanned, and the index rewritten.
    if (['ENOENT', 'ENOTDIR', 'EACCES', 'EISDIR'].includes(errnoCode(error) ?? '')) return entries
    throw error
  }
  // Something other than a file at the index's name (a FIFO) is a cold cache; the next write replaces it.
  if (text === undefined) return entries
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    // A torn or foreign index is a cold cache, not an error.
    return entries
  }
  const index = indexSchema.safeParse(raw)
  if (!index.success) return entries
  for (const [name, value] of Object.entries(index.data.entries)) {
    const entry = entrySchema.safeParse(value)
    // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- the header was validated by sessionHeaderSchema inside entrySchema
    if (entry.success) entries.set(name, entry.data as IndexEntry)
  }
  return entries
}

/** Replaces the index with `entries`; a failure (read-only or full disk) leaves the old one. */
export function writeIndex(directory: string, entries: ReadonlyMap<string, IndexEntry>): void {
  const target = join(directory, INDEX_FILE)
  const temp = `${target}.${randomUUID()}.tmp`
  try {
    writeFileSync(temp, JSON.stringify({ version: 1, entries: Object.fromEntries(entries) }), { mode: 0o600 })
    renameSync(temp, target)
  } catch (error) {
    // The index is a cache: without it the next listing scans again. Remove our partial temp file.
    try {
      unlinkSync(temp)
    } catch {
      // Never created, or already renamed into place: nothing left behind.
    }
    if (errnoCode(error) === undefined) throw error
  }
}
