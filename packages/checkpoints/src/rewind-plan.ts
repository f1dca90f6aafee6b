/**
 * Planning a rewind without changing anything: which files go back to which state, what each one
 * is expected to hold now (what the session last left there), which turns and which part of the
 * conversation are taken back. Problems that forbid the rewind are collected, each naming its
 * file: a turn out of range, a checkpoint object that is missing or damaged, a path outside the
 * session's roots, a file changed outside dsh (unless forced), a compacted turn.
 */
import type { SessionView } from '@dsh/contracts'
import type { FileState, RewindRecord } from './checkpoint-types.ts'
import type { CheckpointDirectory } from './checkpoint-directory.ts'
import { captureState, DEFAULT_MAX_FILE_BYTES, sameState } from './file-state.ts'
import { insideRoots } from './inside-roots.ts'
import { shortDiff } from './short-diff.ts'
import { rewoundTurns, turnRows } from './turn-history.ts'

/** What a rewind will do. */
export interface RewindPlan {
  /** Files to put back: target state, state now, state expected now. */
  readonly files: readonly { readonly path: string; readonly target: FileState; readonly now: FileState; readonly expected: FileState }[]
  /** Files whose earlier content was not kept (named, left as they are). */
  readonly unrestorable: readonly { readonly path: string; readonly state: FileState }[]
  /** Files changed outside dsh since the session last wrote them, each with a short diff. */
  readonly conflicts: readonly { readonly path: string; readonly diff: readonly string[] }[]
  /** Problems that forbid the rewind (missing objects, paths outside the roots). */
  readonly errors: readonly string[]
  /** Turns taken back. */
  readonly turns: readonly number[]
  /** Surface index from which the conversation is taken back (absent: conversation untouched). */
  readonly surfaceStart?: number
}

/** What to rewind. */
export interface RewindRequest {
  readonly toTurn: number
  readonly code: boolean
  readonly conversation: boolean
}

/** Throws a one-line error for a turn out of range. */
export function checkTurn(session: SessionView, turn: number): void {
  const rows = turnRows(session)
  const last = rows.at(-1)?.turn ?? 0
  if (!Number.isInteger(turn) || turn < 1 || turn > last) throw new Error(last === 0 ? `session ${session.header.id} has no turns to rewind` : `turn ${turn} is out of range: session ${session.header.id} has turns 1 to ${last}`)
}

/** The surface index where turn `turn` begins, or an error when a compaction folded it into an earlier message. */
function surfaceStartOf(session: SessionView, turn: number): number | string {
  const row = turnRows(session).find((candidate) => candidate.turn === turn)
  if (row === undefined) return `turn ${turn} is not in the log`
  const start = session.surface.findIndex((seq) => seq > row.startSeq)
  if (start === -1) return session.surface.length
  for (const seq of session.surface.slice(start)) {
    const sources = session.eventBySeq(seq)?.sourceEventSeqs ?? []
    if (sources.some((source) => source < row.startSeq)) return `the conversation from turn ${turn} on was compacted together with earlier turns; rewind it with --code-only, or pick an earlier turn`
  }
  return start
}

/** Plans a rewind to before `request.toTurn`. */
export function planRewind(session: SessionView, directory: CheckpointDirectory, records: readonly RewindRecord[], request: RewindRequest, options: { readonly force: boolean }): RewindPlan {
  checkTurn(session, request.toTurn)
  const rewound = rewoundTurns(records)
  const lastTurn = turnRows(session).at(-1)?.turn ?? 0
  const turns: number[] = []
  for (let turn = request.toTurn; turn <= lastTurn; turn++) if ((request.code && !rewound.code.has(turn)) || (request.conversation && !rewound.conversation.has(turn))) turns.push(turn)
  const errors: string[] = []
  let surfaceStart: number | undefined
  if (request.conversation) {
    const start = surfaceStartOf(session, request.toTurn)
    if (typeof start === 'string') errors.push(start)
    else surfaceStart = start
  }
  const targets = new Map<string, { target: FileState; expected: FileState; roots: readonly string[] }>()
  if (request.code) {
    for (const turn of directory.turns()) {
      if (turn < request.toTurn || rewound.code.has(turn)) continue
      const checkpoint = directory.turn(turn)
      if (checkpoint === undefined) continue
      for (const change of Object.values(checkpoint.files)) {
        const known = targets.get(change.path)
        targets.set(change.path, { target: known?.target ?? change.before, expected: change.after ?? change.before, roots: checkpoint.roots })
      }
    }
  }
  const files: RewindPlan['files'][number][] = []
  const unrestorable: RewindPlan['unrestorable'][number][] = []
  const conflicts: RewindPlan['conflicts'][number][] = []
  for (const [path, { target, expected, roots }] of [...targets].toSorted(([a], [b]) => a.localeCompare(b))) {
    if (!insideRoots(path, roots)) {
      errors.push(`${path} is outside the session's roots (${roots.join(', ')}); nothing was restored`)
      continue
    }
    if (target.kind === 'not-kept') {
      unrestorable.push({ path, state: target })
      continue
    }
    if (target.kind === 'file') {
      const health = directory.objects.check(target.blob)
      if (health !== 'ok') {
        errors.push(`checkpoint object ${directory.objects.fileOf(target.blob)} for ${path} is ${health}; nothing was restored`)
        continue
      }
    }
    const { state: now } = captureState(path, directory.objects, DEFAULT_MAX_FILE_BYTES)
    if (!sameState(now, expected) && !options.force) conflicts.push({ path, diff: shortDiff(expected, now, directory.objects) })
    if (!sameState(now, target)) files.push({ path, target, now, expected })
  }
  return { files, unrestorable, conflicts, errors, turns, ...(surfaceStart === undefined ? {} : { surfaceStart }) }
}
