/**
 * One writer per session file: an exclusive lock file (`<id>.lock`, created with `wx`, holding the
 * writer's pid) taken when a session is created or opened for appending and removed when it is
 * closed. A lock whose pid is no longer alive was left by a crash and is taken over.
 */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { DshError, errnoCode } from './errors.ts'

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else; ESRCH: it is gone.
    return errnoCode(error) === 'EPERM'
  }
}

function holder(lockFile: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockFile, 'utf8').trim(), 10)
    return Number.isInteger(pid) && pid > 0 ? pid : undefined
  } catch (error) {
    // The lock vanished between our failed create and this read: nobody holds it now.
    if (errnoCode(error) === 'ENOENT') return undefined
    throw error
  }
}

/** Takes the lock of `sessionId`; returns its release function. Throws `SESSION_BUSY` when held. */
export function lockSession(lockFile: string, sessionId: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, `${process.pid}\n`, { flag: 'wx', mode: 0o600 })
      let released = false
      return () => {
        if (released) return
        released = true
        try {
          unlinkSync(lockFile)
        } catch (error) {
          // Already gone (removed by hand): the session is unlocked either way.
          if (errnoCode(error) !== 'ENOENT') throw error
        }
      }
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw error
      const pid = holder(lockFile)
      if (pid !== undefined && alive(pid)) {
        const who = pid === process.pid ? 'this process' : `process ${pid}`
        throw new DshError('SESSION_BUSY', `session ${sessionId} is open in ${who}; close it there first (lock ${lockFile})`)
      }
      // A stale lock from a crashed writer: remove it and try once more.
      try {
        unlinkSync(lockFile)
      } catch (unlinkError) {
        // Another process removed it first; the retry below decides who gets the lock.
        if (errnoCode(unlinkError) !== 'ENOENT') throw unlinkError
      }
    }
  }
  throw new DshError('SESSION_BUSY', `session ${sessionId} is being opened by another process; try again`)
}
