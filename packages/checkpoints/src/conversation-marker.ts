/**
 * The conversation half of a rewind: one `checkpoint/rewind` event appended to the session log,
 * like a compaction. A rewind's marker replaces the surface from the rewound turn's first message
 * to the end (those events stay in the log, out of the model's sight); an undo's marker replaces
 * the rewind's marker and reinstates the nodes it removed. The marker carries no message, so the
 * model sees nothing of it.
 */
import type { SessionView, SurfaceOp } from '@dsh/contracts'
import type { RewindRecord } from './checkpoint-types.ts'

/** A session log that takes appends (the runtime's `Session`). */
export interface WritableSession extends SessionView {
  append(type: string, data: unknown, options: { readonly surfaceOp?: SurfaceOp; readonly sourceEventSeqs?: readonly number[] }): unknown
  sync(): void
}

/** Whether a session view can take appends (a live agent's session can; a loaded one cannot). */
export function isWritable(session: SessionView): session is WritableSession {
  return typeof Reflect.get(session, 'append') === 'function' && typeof Reflect.get(session, 'sync') === 'function'
}

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
export function appendMarker(session: WritableSession, record: RewindRecord): void {
  const data: RewindMarkerData = { rewindId: record.id, kind: record.kind, turns: record.turns, ...(record.undoes === undefined ? {} : { undoes: record.undoes }) }
  if (record.kind === 'rewind') {
    const start = record.removedNodes.length === 0 ? session.surface.length : session.surface.indexOf(record.removedNodes[0] ?? -1)
    if (start === -1 || session.surface.length - start !== record.removedNodes.length) throw new Error(`the conversation of session ${session.header.id} changed since rewind ${record.id} was planned`)
    session.append(REWIND_EVENT, data, { surfaceOp: { op: 'replace', start, end: session.surface.length }, sourceEventSeqs: record.removedNodes })
  } else {
    const index = markerIndex(session, record.undoes ?? '')
    session.append(REWIND_EVENT, data, { surfaceOp: { op: 'replace', start: index, end: index + 1, reinstate: record.removedNodes } })
  }
  session.sync()
}
