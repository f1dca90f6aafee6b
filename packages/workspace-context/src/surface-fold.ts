/**
 * The instruction state of a session's visible surface, folded incrementally. Between two
 * replacements (compaction bumps `replaceGeneration`) the surface only grows by appends, so the
 * fold of the entries seen so far stands and a pass applies only the entries appended since; a
 * new generation folds from the start. Every caller gets its own copy of the scopes (a pass may
 * apply a baseline to it), and applies overlays and drops unbacked entries itself
 * (`deriveVisibleState`). Holds what the session's messages say, nothing read from disk.
 */
import type { SessionView } from '@dsh/contracts'
import { userMessageOf } from './guards.ts'
import { applyMessage, type EffectiveEntry, type VisibleState } from './visible-state.ts'

/** The fold of one session's surface for one plugin. */
export class SurfaceFold {
  readonly #plugin: string
  #generation = -1
  #folded = 0
  #state: { scopes: Map<string, EffectiveEntry>; baseline?: VisibleState['baseline'] } = { scopes: new Map() }

  constructor(plugin: string) {
    this.#plugin = plugin
  }

  /** The state of `session`'s surface (a fresh copy of the scopes). */
  current(session: SessionView): { scopes: Map<string, EffectiveEntry>; baseline?: VisibleState['baseline'] } {
    const surface = session.surface
    if (session.replaceGeneration !== this.#generation || surface.length < this.#folded) {
      this.#generation = session.replaceGeneration
      this.#folded = 0
      this.#state = { scopes: new Map() }
    }
    for (; this.#folded < surface.length; this.#folded++) {
      const seq = surface[this.#folded]
      const message = seq === undefined ? undefined : userMessageOf(session.eventBySeq(seq))
      if (message !== undefined) applyMessage(this.#state, message, this.#plugin)
    }
    const { baseline } = this.#state
    return { scopes: new Map(this.#state.scopes), ...(baseline === undefined ? {} : { baseline }) }
  }
}
