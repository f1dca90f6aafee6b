/**
 * `stat` / `lstat` probes. Synchronous bigint stats (≈4 µs vs ≈32 µs for the promise API on a
 * local disk, research perf-security §2.5); the signal is checked before each probe.
 * ENOENT/ENOTDIR mean "absent" (`undefined`); every other failure is `FS_IO`, never "absent".
 */
import { lstatSync, statSync, type BigIntStats } from 'node:fs'
import { systemErrorCode, toFsError } from './fs-error.ts'

/** Followed (`stat`) or unfollowed (`lstat`) bigint stats; `undefined` when nothing is there. */
export function probe(path: string, follow: boolean): BigIntStats | undefined {
  try {
    const options = { bigint: true, throwIfNoEntry: false } as const
    return follow ? statSync(path, options) : lstatSync(path, options)
  } catch (error) {
    // ENOTDIR (a file used as a directory) also means "nothing exists there"; `throwIfNoEntry`
    // only covers ENOENT. Anything else (EACCES, ELOOP, EIO) is a real failure.
    if (systemErrorCode(error) === 'ENOTDIR') return undefined
    throw toFsError(error, path, follow ? 'stat' : 'lstat')
  }
}
