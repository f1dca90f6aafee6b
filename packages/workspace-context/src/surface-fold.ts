/**
 * The instruction state of a session's visible surface, folded incrementally. Between two
 * replacements (compaction bumps `replaceGeneration`) the surface only grows by appends, so the
 * fold of the entries seen so far stands and a pass applies only the entries appended since; a
 * new generation folds from the start. Every caller gets its own copy of the scopes (a pass may
 * apply a baseline to it), and applies overlays and drops unbacked entries itself
 * (`deriveVisibleState`). Holds what the session's messages say, nothing read from disk.
 *
 * `version` names the folded state: it changes whenever an instruction message is folded or the
 * fold starts again, and with every surface entry while some entry was delivered by a `read` (whose
 * result becoming visible or not changes what counts as delivered).
 */
import type { SessionView } from '@dsh/contracts'
import { userMessageOf } from './guards.ts'
import { applyMessage, type EffectiveEntry, type VisibleState } from './visible-state.ts'

/** The fold of one session's surface for one plugin. */
export class SurfaceFold {
  readonly #plugin: string
  #generation = -1
  #folded = 0
  /** Folds started, and instruction messages folded since the last start. */
  #starts = 0
  #applied = 0
  #readDelivered = false
  #state: { scopes: Map<string, EffectiveEntry>; baseline?: VisibleState['baseline'] } = { scopes: new Map() }

  constructor(plugin: string) {
    this.#plugin = plugin
  }

  /** The version of `session`'s folded state (see the module comment). */
  version(session: SessionView): string {
    this.#catchUp(session)
    return `${this.#starts}:${this.#applied}${this.#readDelivered ? `:${this.#folded}` : ''}`
  }

  /** The state of `session`'s surface (a fresh copy of the scopes). */
  current(session: SessionView): { scopes: Map<string, EffectiveEntry>; baseline?: VisibleState['baseline'] } {
    this.#catchUp(session)
    const { baseline } = this.#state
    return { scopes: new Map(this.#state.scopes), ...(baseline === undefined ? {} : { baseline }) }
  }

  #catchUp(session: SessionView): void {
    const surface = session.surface
    if (session.replaceGeneration !== this.#generation || surface.length < this.#folded) {
      this.#generation = session.replaceGeneration
      this.#folded = 0
      this.#starts += 1
      this.#applied = 0
      this.#readDelivered = false
      this.#state = { scopes: new Map() }
    }
    for (; this.#folded < surface.length; this.#folded++) {
      const seq = surface[this.#folded]
      const message = seq === undefined ? undefined : userMessageOf(session.eventBySeq(seq))
      const source = message === undefined ? undefined : applyMessage(this.#state, message, this.#plugin)
      if (source === undefined) continue
      this.#applied += 1
      if (source.changes.some((change) => change.readCallId !== undefined)) this.#readDelivered = true
    }
  }
}
