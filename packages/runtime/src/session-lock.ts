/**
 * One writer per session file: an exclusive lock file `<id>.lock` taken when a session is created
 * or opened for appending and removed when it is closed.
 *
 * 1. The lock is written completely to a private temp file, then hard-linked into place: it
 *    never exists empty, and `link` fails if another writer holds it.
 * 2. It records `pid starttime token`. A holder is live when that pid runs *and* started at that
 *    time (Linux `/proc/<pid>/stat`; elsewhere the pid alone), so a pid reused after a restart
 *    (containers start at pid 1 again) does not keep a session busy.
 * 3. A stale lock is taken over by renaming it aside and checking that what moved is the stale
 *    lock read before; if another process replaced it meanwhile, it is put back and we report busy.
 * 4. Release removes the lock only while it still carries our token.
 */
import { randomUUID } from 'node:crypto'
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { DshError, errnoCode } from './errors.ts'

interface LockRecord {
  readonly pid: number
  readonly start: string
  readonly token: string
}

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

function alive(record: LockRecord): boolean {
  if (record.pid <= 0) return false
  try {
    process.kill(record.pid, 0)
  } catch (error) {
    // EPERM: the process exists but belongs to someone else; ESRCH: it is gone.
    if (errnoCode(error) !== 'EPERM') return false
  }
  return record.start === '-' || startTimeOf(record.pid) === '-' || startTimeOf(record.pid) === record.start
}

function readRecord(file: string): LockRecord | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    // The lock vanished (released meanwhile): nobody holds it now.
    if (errnoCode(error) === 'ENOENT') return undefined
    throw error
  }
  const [pid, start, token] = text.trim().split(' ')
  const parsed = Number.parseInt(pid ?? '', 10)
  // Anything unparsable (a hand-written or truncated lock) has no live holder: pid 0 is never alive.
  return { pid: Number.isInteger(parsed) && parsed > 0 ? parsed : 0, start: start ?? '-', token: token ?? text.trim() }
}

function removeIfOurs(lockFile: string, token: string): void {
  if (readRecord(lockFile)?.token !== token) return
  try {
    unlinkSync(lockFile)
  } catch (error) {
    // Already gone: the session is unlocked either way.
    if (errnoCode(error) !== 'ENOENT') throw error
  }
}

/** Tries to move a stale lock aside; false when what moved was not the stale lock (it is put back). */
function takeOver(lockFile: string, stale: LockRecord): boolean {
  const aside = `${lockFile}.stale-${randomUUID()}`
  try {
    renameSync(lockFile, aside)
  } catch (error) {
    // Someone else moved or released it first: retry the normal way.
    if (errnoCode(error) === 'ENOENT') return true
    throw error
  }
  const moved = readRecord(aside)
  if (moved?.token === stale.token) {
    unlinkSync(aside)
    return true
  }
  try {
    linkSync(aside, lockFile)
  } catch (error) {
    // A third writer took the slot meanwhile; the lock we moved belonged to a live writer that will
    // find it gone at release (it only removes its own token, so nothing is lost beyond exclusivity).
    if (errnoCode(error) !== 'EEXIST') throw error
  }
  unlinkSync(aside)
  return false
}

function busy(sessionId: string, lockFile: string, holder: LockRecord | undefined): DshError {
  const who = holder === undefined ? 'another process' : holder.pid === process.pid ? 'this process' : `process ${holder.pid}`
  return new DshError('SESSION_BUSY', `session ${sessionId} is open in ${who}; close it there first (lock ${lockFile})`)
}

/** Takes the lock of `sessionId`; returns its release function. Throws `SESSION_BUSY` when held. */
export function lockSession(lockFile: string, sessionId: string): () => void {
  const token = randomUUID()
  const temp = `${lockFile}.${token}.tmp`
  writeFileSync(temp, `${process.pid} ${startTimeOf(process.pid)} ${token}\n`, { flag: 'wx', mode: 0o600 })
  try {
    for (let attempt = 0; attempt < 4; attempt++) {
      try {
        linkSync(temp, lockFile)
        let released = false
        return () => {
          if (released) return
          released = true
          removeIfOurs(lockFile, token)
        }
      } catch (error) {
        if (errnoCode(error) !== 'EEXIST') throw error
        const holder = readRecord(lockFile)
        if (holder === undefined) continue
        if (alive(holder)) throw busy(sessionId, lockFile, holder)
        if (!takeOver(lockFile, holder)) throw busy(sessionId, lockFile, undefined)
      }
    }
    throw busy(sessionId, lockFile, undefined)
  } finally {
    unlinkSync(temp)
  }
}
