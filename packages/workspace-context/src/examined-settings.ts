/**
 * Which settings each session was last examined under, kept in memory by the plugin instance (it
 * survives a hot remount of that instance, which mounts a new engine). A settings change is acted on in the first
 * pass under the new settings only; when that pass has nothing to say it logs no message, so the
 * session's typed sources still name the earlier settings. Without this record a later pass would
 * misjudge it both ways: under the same new settings (a resume) it would take a file that changed
 * since for one the settings exclude and remove it instead of flagging it as outdated; back under
 * the logged settings (A, then B logging nothing, then A again) it would take a settings change
 * for none and flag a file the settings exclude as outdated instead of removing it. Lost on a
 * restart: the logged identity is then all there is.
 */

/** Sessions remembered at most; the oldest record is dropped first. */
const LIMIT = 1024

/** The record of one plugin instance. */
export class ExaminedSettings {
  readonly #records = new Map<string, string>()

  /** Identity of the settings the latest completed first pass of `sessionId` ran under, if known. */
  under(sessionId: string): string | undefined {
    return this.#records.get(sessionId)
  }

  /** Records that a first pass of `sessionId` completed under `identity`. */
  record(sessionId: string, identity: string): void {
    this.#records.delete(sessionId)
    this.#records.set(sessionId, identity)
    if (this.#records.size > LIMIT) {
      const oldest = this.#records.keys().next()
      if (oldest.done !== true) this.#records.delete(oldest.value)
    }
  }
}
