/**
 * A cross-process lock file for short read-modify-write sections (the settings file, the roots
 * registry, maintainer documents): `<target>.lock`, held for the milliseconds of one change.
 *
 * 1. The lock records `{ pid, host, token, at }`. It is written completely to a private temp file
 *    and hard-linked into place, so it never exists half-written and `link` fails while another
 *    holder has it.
 * 2. A waiter retries with a growing pause until `timeoutMs`, then fails with the caller's `busy`
 *    error naming the holder and the lock file.
 * 3. A holder is stale when its pid is gone on this host, when the lock cannot be parsed (nothing
 *    we wrote), or when it is older than `staleAfterMs` (a reused pid, another host). A stale lock
 *    is renamed aside and checked: if what moved is not the stale lock that was judged (another
 *    waiter took over first), it is put back.
 * 4. The holder checks that it still owns the lock right before it writes (`requireHeld`), and
 *    releases only a lock that carries its token.
 * 5. Temp records are named `<lock>.<pid>.<token>.tmp`; a new holder removes those of dead pids.
 */
import { randomUUID } from 'node:crypto'
import { linkSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { basename, dirname } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { DshError, errnoCode } from './errors.ts'
import { removeStaleTempFiles, tempFileName } from './stale-temp-files.ts'

/** Options of {@link withFileLock}. */
export interface FileLockOptions {
  /** The lock file (conventionally the protected file's path plus `.lock`). */
  readonly file: string
  /** Give up waiting after this long (default 10 s). */
  readonly timeoutMs?: number
  /** A lock older than this is stale whoever holds it (default 30 s; holders need milliseconds). */
  readonly staleAfterMs?: number
  /** Wall clock in epoch milliseconds. */
  readonly now?: () => number
  /** The error thrown when the wait times out; `holder` names who holds it ("process 123"). */
  readonly busy?: (holder: string, file: string) => Error
  /** The error `requireHeld` throws when the lock was taken over meanwhile. */
  readonly takenOver?: (file: string) => Error
}

/** What a locked section may ask. */
export interface FileLockHold {
  /** Throws the `takenOver` error unless the lock still carries this holder's token. */
  requireHeld(): void
}

interface Holder {
  readonly pid: number
  readonly host: string
  readonly token: string
  readonly at: number
}

function readHolder(file: string): Holder | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    // Released meanwhile: nobody holds it.
    if (errnoCode(error) === 'ENOENT') return undefined
    throw error
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    // Not a lock this code wrote (hand-made or damaged): no live holder can be named.
    value = undefined
  }
  const get = (key: string): unknown => (typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined)
  const pid = get('pid')
  const at = get('at')
  return {
    pid: typeof pid === 'number' && Number.isInteger(pid) ? pid : 0,
    host: typeof get('host') === 'string' ? String(get('host')) : '',
    token: typeof get('token') === 'string' ? String(get('token')) : text,
    at: typeof at === 'number' ? at : 0,
  }
}

/** True when process `pid` runs (on this host). */
export function processAlive(pid: number): boolean {
  if (pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to another user; ESRCH: it is gone.
    return errnoCode(error) === 'EPERM'
  }
}

function stale(holder: Holder, now: number, staleAfterMs: number): boolean {
  if (holder.pid === 0 || now - holder.at > staleAfterMs) return true
  return holder.host === hostname() && !processAlive(holder.pid)
}

/** Moves a stale lock aside; puts it back when what moved was not the lock judged stale. */
function breakStale(file: string, judged: Holder): void {
  const aside = `${file}.stale-${randomUUID()}`
  try {
    renameSync(file, aside)
  } catch (error) {
    // Someone else released or moved it first: simply try again.
    if (errnoCode(error) === 'ENOENT') return
    throw error
  }
  if (readHolder(aside)?.token !== judged.token) {
    try {
      linkSync(aside, file)
    } catch (error) {
      // A new holder took the slot meanwhile; the moved lock's owner only ever removes its own
      // token, so it finds its lock gone and fails its `requireHeld` check instead of writing.
      if (errnoCode(error) !== 'EEXIST') throw error
    }
  }
  unlinkSync(aside)
}

function describe(holder: Holder | undefined): string {
  if (holder === undefined || holder.pid === 0) return 'another process'
  return holder.pid === process.pid && holder.host === hostname() ? 'this process' : `process ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}`
}

/** A one-line reason for a failed write, spelling out a full disk. */
export function describeWriteError(error: unknown): string {
  const code = errnoCode(error)
  if (code === 'ENOSPC') return 'the disk is full (ENOSPC)'
  if (code === 'EDQUOT') return 'the disk quota is exhausted (EDQUOT)'
  if (code === 'EFBIG') return 'the file size limit was reached (EFBIG)'
  return code ?? (error instanceof Error ? error.message : String(error))
}

const defaultBusy = (holder: string, file: string): Error => new DshError('LOCK_BUSY', `${file} is locked by ${holder}; try again, or delete the lock file if no dsh is running`)
const defaultTakenOver = (file: string): Error => new DshError('LOCK_BUSY', `the lock ${file} was taken over while this change was being made; nothing was written, try again`)

/** Runs `work` while holding the lock (until the promise it returns settles). */
export async function withFileLock<T>(options: FileLockOptions, work: (hold: FileLockHold) => T | Promise<T>): Promise<T> {
  const now = options.now ?? Date.now
  const deadline = now() + (options.timeoutMs ?? 10_000)
  const staleAfterMs = options.staleAfterMs ?? 30_000
  const token = randomUUID()
  const prefix = `${basename(options.file)}.`
  const temp = `${dirname(options.file)}/${tempFileName(prefix, token)}`
  try {
    writeFileSync(temp, JSON.stringify({ pid: process.pid, host: hostname(), token, at: now() }), { flag: 'wx', mode: 0o600 })
  } catch (error) {
    // Not swallowed: rethrown typed, naming the lock (a write error of Node names no file).
    rmSync(temp, { force: true })
    throw new DshError('LOCK_FAILED', `cannot create the lock ${options.file}: ${describeWriteError(error)}`, { cause: error })
  }
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(temp, options.file)
        break
      } catch (error) {
        if (errnoCode(error) !== 'EEXIST') throw error
      }
      const holder = readHolder(options.file)
      if (holder === undefined) continue
      if (stale(holder, now(), staleAfterMs)) {
        breakStale(options.file, holder)
        continue
      }
      if (now() >= deadline) throw (options.busy ?? defaultBusy)(describe(holder), options.file)
      await sleep(Math.min(5 * 2 ** Math.min(attempt, 5), 100))
    }
  } finally {
    rmSync(temp, { force: true })
  }
  // Waiting records of killed waiters are left over once their pid is gone.
  removeStaleTempFiles(dirname(options.file), prefix)
  const requireHeld = (): void => {
    if (readHolder(options.file)?.token !== token) throw (options.takenOver ?? defaultTakenOver)(options.file)
  }
  try {
    return await work({ requireHeld })
  } finally {
    if (readHolder(options.file)?.token === token) rmSync(options.file, { force: true })
  }
}
