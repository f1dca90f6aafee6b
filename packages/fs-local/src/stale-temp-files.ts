/**
 * Removal of temp files that an atomic write left behind when its process died between creating
 * the temp file and renaming it (a kill, a crash, a power cut): `.<name>.dsh-<pid>-<12 hex>.tmp`
 * in the target's directory. A file is removed only when its pid no longer runs; temp files of a
 * live process (possibly mid-write) and every other name are left alone. Best effort: a listing
 * or removal that fails never fails the write that asked for the cleanup.
 */
import { readdir, unlink } from 'node:fs/promises'
import { join } from 'node:path'

/** Name of an atomic write's temp file; group 1 is the writer's pid. */
const TEMP_NAME = /^\..*\.dsh-(\d+)-[0-9a-f]{12}\.tmp$/

/** True when a process with this pid exists (EPERM: it exists but belongs to another user). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // ESRCH is the one answer that means "no such process"; anything else (EPERM) means it exists.
    return !(typeof error === 'object' && error !== null && 'code' in error && error.code === 'ESRCH')
  }
}

/** Removes temp files of dead writers in `directory`; returns the names removed. */
export async function removeStaleTempFiles(directory: string): Promise<string[]> {
  let names: string[]
  try {
    names = await readdir(directory)
  } catch {
    // An unlistable directory: the write itself reports what is wrong with it; nothing to clean.
    return []
  }
  const removed: string[] = []
  for (const name of names) {
    const pid = Number(TEMP_NAME.exec(name)?.[1] ?? Number.NaN)
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || isRunning(pid)) continue
    try {
      await unlink(join(directory, name))
      removed.push(name)
    } catch {
      // Another writer removed it first, or it is not ours to remove (EACCES): leave it.
    }
  }
  return removed
}
