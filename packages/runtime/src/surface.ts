/**
 * The visible surface: which surface-eligible events the model can currently see. Pure
 * functions over the event list, so deriving history never depends on hidden state.
 */
import type { SessionEvent, SurfaceOp } from '@dsh/contracts'

/** Surface node seqs plus the number of replacements applied. */
export interface SurfaceState {
  /** Visible event seqs, in order. */
  readonly nodes: readonly number[]
  /** Count of `replace` operations applied. */
  readonly replaceGeneration: number
}

/** The empty surface. */
export const emptySurface: SurfaceState = { nodes: [], replaceGeneration: 0 }

/**
 * Applies one event's surface operation. `replace` removes nodes `[start, end)` and inserts the
 * event at `start`. Throws a RangeError for a range outside the current surface.
 */
export function applySurfaceOp(state: SurfaceState, seq: number, op: SurfaceOp): SurfaceState {
  if (op === 'append') return { nodes: [...state.nodes, seq], replaceGeneration: state.replaceGeneration }
  const { start, end } = op
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || end > state.nodes.length) {
    throw new RangeError(`surface replace [${start}, ${end}) is outside a surface of ${state.nodes.length} nodes`)
  }
  return { nodes: [...state.nodes.slice(0, start), seq, ...state.nodes.slice(end)], replaceGeneration: state.replaceGeneration + 1 }
}

/** Recomputes the surface from a whole event list. */
export function computeSurface(events: readonly SessionEvent[]): SurfaceState {
  let state = emptySurface
  for (const event of events) {
    if (event.surfaceOp !== undefined) state = applySurfaceOp(state, event.seq, event.surfaceOp)
  }
  return state
}
