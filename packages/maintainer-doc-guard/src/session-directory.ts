/**
 * What the operator surface needs to know about sessions, and nothing more: the header of a
 * session by id (its cwd is where its documents live) and whether a session still exists
 * (present / absent / unavailable). `sessionDirectoryOf` adapts the runtime's session store.
 */
import { statSync } from 'node:fs'
import type { SessionHeader } from '@dsh/contracts'
import { errnoCode, isDshError, type SessionStore } from '@dsh/runtime'

/** Three-state existence. */
export type Presence = 'present' | 'absent' | 'unavailable'

/** Sessions as the operator surface sees them. */
export interface SessionDirectory {
  /** The header of `id`, or `undefined` when no such session exists. Other failures reject. */
  header(id: string): SessionHeader | undefined
  /** Whether `id` still exists; `unavailable` when that cannot be told (the store is missing or unreadable). */
  presence(id: string): Presence
}

function statPresence(path: string, directory: boolean): Presence {
  try {
    const stats = statSync(path)
    return directory === stats.isDirectory() ? 'present' : 'unavailable'
  } catch (error) {
    // ENOENT / ENOTDIR mean absent; anything else means we cannot tell.
    const code = errnoCode(error)
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'absent' : 'unavailable'
  }
}

/** A directory over the runtime's session store. */
export function sessionDirectoryOf(store: SessionStore): SessionDirectory {
  return {
    header(id) {
      try {
        return store.load(id).header
      } catch (error) {
        // Only "no such session" becomes undefined; a broken file is a real failure.
        if (isDshError(error) && error.code === 'SESSION_NOT_FOUND') return undefined
        throw error
      }
    },
    presence(id) {
      // A store whose directory is missing cannot be the one these folders came from.
      if (statPresence(store.directory, true) !== 'present') return 'unavailable'
      let file: string
      try {
        file = store.fileOf(id)
      } catch (error) {
        // An id the store refuses cannot name a stored session.
        if (isDshError(error)) return 'absent'
        throw error
      }
      return statPresence(file, false)
    },
  }
}
