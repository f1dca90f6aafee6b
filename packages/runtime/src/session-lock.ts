/**
 * One writer per session, under any interleaving of any number of processes, crashes included.
 *
 * The lock of session `ID` is a directory `<sessions>/.locks/ID/` of *generation* files named
 * 1, 2, 3, …; the highest generation is the lock's state. Each file is written whole into a
 * private temp file first and then put in place atomically (`link` to create, `rename` to
 * replace), so it never exists partly written. A generation holds `PID STARTTIME TOKEN` while its
 * process holds the lock, and is empty once released.
 *
 * Acquire:
 * 1. list the generations; read the highest, G;
 * 2. if G's holder is live (that pid runs *and* started at that time — Linux `/proc/PID/stat`,
 *    elsewhere the pid alone — so a pid reused after a restart does not count), the session is
 *    busy; a released or dead G is free;
 * 3. link our record as G+1; `EEXIST` means another process got there first: start again;
 * 4. list again: if a generation above ours exists we lost the race (remove ours, start again);
 *    otherwise we hold the lock, and remove the generations below ours.
 *
 * Why it is exclusive: a generation is only ever removed when a higher one exists, so the highest
 * never goes down. A process creates G+1 only after reading G as released or dead; while we hold
 * ours (live), nobody can create the next one, and anybody who raced with a lower one finds ours
 * above it in step 4. Release renames an empty file over our generation, so it stays the highest.
 *
 * A `<ID>.lock` file left by an older dsh is honoured while its writer lives and removed once we
 * hold the lock after it died.
 */
import { randomUUID } from 'node:crypto'
import { closeSync, linkSync, openSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { DshError, errnoCode } from './errors.ts'
import { ioReason, nodeFileIo, readRegularFile, removeIfPresent, writeWhole, type SessionFileIo } from './file-io.ts'
import { makeDirectories } from './paths.ts'

/** Where the lock of one session lives. */
export interface LockOptions {
  /** The sessions directory. */
  readonly directory: string
  /** The session id. */
  readonly sessionId: string
  /** Write calls (tests inject failures). */
  readonly io?: SessionFileIo
}

interface LockRecord {
  readonly pid: number
  readonly start: string
  readonly released: boolean
}

const ATTEMPTS = 16

function startTimeOf(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '-'
  } catch (error) {
    // No procfs (or the process is gone): the pid alone decides.
    if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'EACCES') return '-'
    throw error
  }
}

function live(record: LockRecord): boolean {
  if (record.released || record.pid <= 0) return false
  try {
    process.kill(record.pid, 0)
  } catch (error) {
    // EPERM: the process exists but belongs to someone else; ESRCH: it is gone.
    if (errnoCode(error) !== 'EPERM') return false
  }
  if (record.start === '-') return true
  const start = startTimeOf(record.pid)
  return start === '-' || start === record.start
}

/**
 * The record in `file`; undefined when the file is gone. Empty is released; unparsable text, or
 * something other than a file (a FIFO, which is never read), is a dead holder (pid 0).
 */
function readRecord(file: string): LockRecord | undefined {
  let text: string | undefined
  try {
    text = readRegularFile(file)
  } catch (error) {
    // Removed meanwhile (a higher generation exists now, or the lock was released): re-list.
    if (errnoCode(error) === 'ENOENT') return undefined
    throw error
  }
  if (text === undefined) return { pid: 0, start: '-', released: false }
  if (text === '') return { pid: 0, start: '-', released: true }
  const [first, start] = text.trim().split(' ')
  const pid = Number.parseInt(first ?? '', 10)
  return { pid: Number.isInteger(pid) && pid > 0 ? pid : 0, start: start ?? '-', released: false }
}

function generations(lockDir: string): number[] {
  return readdirSync(lockDir)
    .filter((name) => /^[1-9][0-9]*$/.test(name))
    .map(Number)
    .toSorted((a, b) => a - b)
}

function writeRecord(io: SessionFileIo, file: string, text: string): void {
  const fd = openSync(file, 'wx', 0o600)
  let reason: string | undefined
  try {
    reason = writeWhole(io, fd, Buffer.from(text))
  } finally {
    closeSync(fd)
  }
  if (reason !== undefined) throw new Error(reason)
}

function busy(sessionId: string, lockDir: string, holder: LockRecord | undefined): DshError {
  const who = holder === undefined ? 'another process' : holder.pid === process.pid ? 'this process' : `process ${holder.pid}`
  return new DshError('SESSION_BUSY', `session ${sessionId} is open in ${who}; close it there first (lock ${lockDir})`)
}

/** Takes the lock of a session; returns its release function. Throws `SESSION_BUSY` when held. */
export function lockSession(options: LockOptions): () => void {
  const { sessionId } = options
  const io = options.io ?? nodeFileIo
  const lockDir = join(options.directory, '.locks', sessionId)
  const legacy = join(options.directory, `${sessionId}.lock`)
  const token = randomUUID()
  const temp = join(lockDir, `.${token}.tmp`)
  try {
    const legacyHolder = readRecord(legacy)
    if (legacyHolder !== undefined && live(legacyHolder)) throw busy(sessionId, legacy, legacyHolder)
    makeDirectories(lockDir, { mode: 0o700 })
    writeRecord(io, temp, `${process.pid} ${startTimeOf(process.pid)} ${token}\n`)
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const top = generations(lockDir).at(-1) ?? 0
      if (top > 0) {
        const holder = readRecord(join(lockDir, String(top)))
        if (holder === undefined) continue
        if (live(holder)) throw busy(sessionId, lockDir, holder)
      }
      const ours = join(lockDir, String(top + 1))
      try {
        linkSync(temp, ours)
      } catch (error) {
        // Another process took generation top + 1 first: look again.
        if (errnoCode(error) === 'EEXIST') continue
        throw error
      }
      const after = generations(lockDir)
      if ((after.at(-1) ?? 0) > top + 1) {
        removeIfPresent(ours)
        continue
      }
      for (const generation of after) if (generation < top + 1) removeIfPresent(join(lockDir, String(generation)))
      if (legacyHolder !== undefined) removeIfPresent(legacy)
      return releaser(lockDir, ours, token)
    }
    throw busy(sessionId, lockDir, undefined)
  } catch (error) {
    if (error instanceof DshError) throw error
    throw new DshError('SESSION_WRITE', `cannot lock session ${sessionId} in ${lockDir}: ${ioReason(error)}`, { cause: error })
  } finally {
    removeIfPresent(temp)
  }
}

function releaser(lockDir: string, ours: string, token: string): () => void {
  let released = false
  return () => {
    if (released) return
    released = true
    const temp = join(lockDir, `.${token}.released.tmp`)
    try {
      closeSync(openSync(temp, 'wx', 0o600))
      renameSync(temp, ours)
    } catch {
      // Could not mark it released (a vanished directory, no inode left): the lock stays ours until
      // this process exits, and is stale — free — from then on. Nothing else depends on it.
      removeIfPresent(temp)
    }
  }
}

/**
 * Removes the lock directory of a session whose creation failed (a full disk): its id was fresh and
 * no file of it exists, so no other process can be using the lock, and nothing is left behind.
 */
export function discardUnusedLock(options: { readonly directory: string; readonly sessionId: string }): void {
  try {
    rmSync(join(options.directory, '.locks', options.sessionId), { recursive: true, force: true })
  } catch {
    // An empty directory that cannot be removed either costs nothing; the creation error is what matters.
  }
}
