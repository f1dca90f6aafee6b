/**
 * The conversation half of a rewind: one `checkpoint/rewind` event appended to the session log,
 * like a compaction. A rewind's marker replaces the surface from the rewound turn's first message
 * to the end (those events stay in the log, out of the model's sight); an undo's marker replaces
 * the rewind's marker and reinstates the nodes it removed. The marker carries no message, so the
 * model sees nothing of it.
 */
import type { SessionView } from '@dsh/contracts'
import type { Session } from '@dsh/runtime'
import type { RewindRecord } from './checkpoint-types.ts'

/** Event type of the marker. */
export const REWIND_EVENT = 'checkpoint/rewind'

/** Payload of the marker. */
export interface RewindMarkerData {
  /** The record it belongs to. */
  readonly rewindId: string
  readonly kind: RewindRecord['kind']
  /** Turns taken back (or given back by an undo). */
  readonly turns: readonly number[]
  readonly undoes?: string
}

const markerId = (data: unknown): unknown => (typeof data === 'object' && data !== null ? Reflect.get(data, 'rewindId') : undefined)

/** Whether the log has the marker of rewind `id`. */
export function hasMarker(session: SessionView, id: string): boolean {
  return session.events.some((event) => event.type === REWIND_EVENT && markerId(event.data) === id)
}

/** The surface index of the marker of rewind `id`, -1 when it is not visible. */
export function markerIndex(session: SessionView, id: string): number {
  return session.surface.findIndex((seq) => {
    const event = session.eventBySeq(seq)
    return event?.type === REWIND_EVENT && markerId(event.data) === id
  })
}

/** Appends the marker of `record` and flushes the log. */
export function appendMarker(session: Session, record: RewindRecord): void {
  const data: RewindMarkerData = { rewindId: record.id, kind: record.kind, turns: record.turns, ...(record.undoes === undefined ? {} : { undoes: record.undoes }) }
  if (record.kind === 'rewind') {
    const start = session.surface.length - record.removedNodes.length
    session.append(REWIND_EVENT, data, { surfaceOp: { op: 'replace', start, end: session.surface.length }, sourceEventSeqs: record.removedNodes })
  } else {
    const index = markerIndex(session, record.undoes ?? '')
    session.append(REWIND_EVENT, data, { surfaceOp: { op: 'replace', start: index, end: index + 1, reinstate: record.removedNodes } })
  }
  session.sync()
}
