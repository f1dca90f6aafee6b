/**
 * What each session last saw of each file: the fs `version` a file had when the model last read,
 * wrote or edited it. `write` consults it so that a file changed by someone else since then (the
 * user in their editor, another program) is not replaced by text built from the old content.
 * Memory only: a resumed session starts with no versions (then `write` behaves as before).
 */
import type { FsVersion } from '@dsh/contracts'

/** Per-session file versions, shared by the `write` tool and the plugin that records them. */
export class FileVersions {
  readonly #sessions = new Map<string, Map<string, FsVersion>>()

  /** Remembers that session `sessionId` last saw `path` (canonical) at `version`. */
  record(sessionId: string, path: string, version: FsVersion): void {
    let files = this.#sessions.get(sessionId)
    if (files === undefined) {
      files = new Map()
      this.#sessions.set(sessionId, files)
    }
    files.set(path, version)
  }

  /** The version session `sessionId` last saw of `path`, if it read or wrote it. */
  seen(sessionId: string, path: string): FsVersion | undefined {
    return this.#sessions.get(sessionId)?.get(path)
  }
}
