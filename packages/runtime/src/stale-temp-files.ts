/**
 * Removes the temp files a killed writer left next to a file it replaces atomically. A writer
 * names its temp file `<prefix><pid>.<random>.tmp`; a file whose pid no longer runs on this host
 * is left over and removed. Callers sweep while holding the file's cross-process lock, so no live
 * writer of this dsh is between its write and its rename.
 */
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { errnoCode } from './errors.ts'
import { processAlive } from './file-lock.ts'

/** The temp file name a writer of `prefix` uses (`prefix` is the file name plus a separator). */
export function tempFileName(prefix: string, random: string): string {
  return `${prefix}${process.pid}.${random}.tmp`
}

/** Removes `<prefix><pid>.<random>.tmp` files in `directory` whose pid is gone. Never throws. */
export function removeStaleTempFiles(directory: string, prefix: string): void {
  let names: string[]
  try {
    names = readdirSync(directory)
  } catch (error) {
    // A directory that cannot be listed has nothing we could remove; the write that follows
    // reports its own failure.
    if (errnoCode(error) !== undefined) return
    throw error
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue
    const pid = /^(\d+)\.[^.]+\.tmp$/u.exec(name.slice(prefix.length))?.[1]
    if (pid === undefined || processAlive(Number(pid))) continue
    try {
      rmSync(join(directory, name), { force: true })
    } catch (error) {
      // Best effort: a leftover we may not remove stays; it never affects the file itself.
      if (errnoCode(error) === undefined) throw error
    }
  }
}
