/**
 * The cross-process lock that serialises registry mutations: `<registry>.lock`, the runtime's
 * `withFileLock` (see there for the protocol) with the registry's own `registry-busy` errors.
 */
import { isDshError, withFileLock, type FileLockHold } from '@dsh/runtime'
import { RootsError } from './errors.ts'

/** Options of {@link withRegistryLock}. */
export interface LockOptions {
  /** The lock file. */
  readonly file: string
  /** Give up waiting after this long (default 10 s). */
  readonly timeoutMs?: number
  /** A lock older than this is stale whoever holds it (default 30 s; holders need milliseconds). */
  readonly staleAfterMs?: number
  /** Wall clock in epoch milliseconds. */
  readonly now?: () => number
}

/** What a locked section may ask. */
export type LockHold = FileLockHold

/** Runs `work` while holding the lock (until the promise it returns settles). */
export async function withRegistryLock<T>(options: LockOptions, work: (hold: LockHold) => T | Promise<T>): Promise<T> {
  try {
    return await withFileLock(
      {
        ...options,
        busy: (holder, file) => new RootsError('registry-busy', `the workspace roots registry is locked by ${holder} (${file}); try again, or delete the lock file if no dsh is running`),
        takenOver: (file) => new RootsError('registry-busy', `the workspace roots registry lock ${file} was taken over while this change was being made; nothing was written, try again`),
      },
      work,
    )
  } catch (error) {
    // Not swallowed: a lock that cannot be created becomes the registry's own typed failure.
    if (isDshError(error) && error.code === 'LOCK_FAILED') throw new RootsError('storage-unavailable', `${error.message}; the workspace roots registry was not changed`)
    throw error
  }
}
