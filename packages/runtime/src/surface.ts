/**
 * The visible surface: which surface-eligible events the model can currently see, as a list of
 * event seqs. It is built in place: `append` pushes (amortised O(1)), `replace` splices the range
 * (O(surface) once per compaction), so loading or appending N events costs O(N) overall. A
 * session owns its surface; readers get it as a read-only view.
 */
import type { SessionEvent, SurfaceOp } from '@dsh/contracts'

/** Surface node seqs plus the number of replacements applied. */
export interface SurfaceState {
  /** Visible event seqs, in order (a live view while the surface grows). */
  readonly nodes: readonly number[]
  /** Count of `replace` operations applied. */
  readonly replaceGeneration: number
}

/** A surface that grows in place. */
export class Surface implements SurfaceState {
  readonly #nodes: number[] = []
  #replaceGeneration = 0

  get nodes(): readonly number[] {
    return this.#nodes
  }

  get replaceGeneration(): number {
    return this.#replaceGeneration
  }

  /** Throws a RangeError when `op` is a replace outside the current surface; changes nothing. */
  check(op: SurfaceOp): void {
    if (op === 'append') return
    const { start, end } = op
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end < start || end > this.#nodes.length) {
      throw new RangeError(`surface replace [${start}, ${end}) is outside a surface of ${this.#nodes.length} nodes`)
    }
    if (op.reinstate?.some((seq) => !Number.isInteger(seq) || seq < 1) === true) throw new RangeError(`surface replace reinstates a seq that is not a positive integer`)
  }

  /** Applies one event's operation: `append` adds `seq` at the end; `replace` puts it in place of nodes `[start, end)`. */
  apply(seq: number, op: SurfaceOp): void {
    this.check(op)
    if (op === 'append') {
      this.#nodes.push(seq)
      return
    }
    this.#nodes.splice(op.start, op.end - op.start, seq, ...(op.reinstate ?? []))
    this.#replaceGeneration += 1
  }
}

/** Recomputes the surface from a whole event list. */
export function computeSurface(events: readonly SessionEvent[]): SurfaceState {
  const surface = new Surface()
  for (const event of events) {
    if (event.surfaceOp !== undefined) surface.apply(event.seq, event.surfaceOp)
  }
  return surface
}
