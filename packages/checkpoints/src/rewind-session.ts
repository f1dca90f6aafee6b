/**
 * The rewind operations of one session whose log the caller holds open (locked): the turn list,
 * a rewind to before a turn (files, conversation or both), and the undo of the latest rewind.
 * Nothing changes when a problem or a conflict is found; the outcome says what was found.
 */
import type { FileState, RewindRecord } from './checkpoint-types.ts'
import type { CheckpointDirectory } from './checkpoint-directory.ts'
import type { SessionView } from '@dsh/contracts'
import { markerIndex, type WritableSession } from './conversation-marker.ts'
import { captureState, DEFAULT_MAX_FILE_BYTES, sameState } from './file-state.ts'
import { executeRewind, newRewindId, type RewindProbe } from './rewind-apply.ts'
import { planRewind, type RewindPlan, type RewindRequest } from './rewind-plan.ts'
import { shortDiff } from './short-diff.ts'
import { lastOpenRewind, rewoundTurns, turnRows } from './turn-history.ts'
import { currentTurn } from './turn-of.ts'

/** One row of `--list`. */
export interface TurnListing {
  readonly turn: number
  readonly time: string
  /** First line of the prompt that started the turn. */
  readonly prompt: string
  /** The whole prompt (a rewind of the conversation offers it for editing). */
  readonly promptText: string
  readonly files: readonly string[]
  readonly unrestorable: readonly string[]
  readonly overBudget: boolean
  /** Roots too big for shell changes to be captured during the turn. */
  readonly untrackedRoots: readonly string[]
  readonly codeRewound: boolean
  readonly conversationRewound: boolean
}

/** The turns with their changed files and rewind states. */
export function listTurns(session: SessionView, directory: CheckpointDirectory): TurnListing[] {
  const rewound = rewoundTurns(directory.rewinds())
  return turnRows(session).map((row) => {
    const checkpoint = directory.turn(row.turn)
    const changes = Object.values(checkpoint?.files ?? {})
    return {
      turn: row.turn,
      time: row.time,
      prompt: row.prompt,
      promptText: row.promptText,
      files: changes.map((change) => change.path).toSorted(),
      unrestorable: changes.flatMap((change) => (change.before.kind === 'not-kept' ? [change.path] : [])).toSorted(),
      overBudget: checkpoint?.overBudget === true,
      untrackedRoots: checkpoint?.untrackedRoots ?? [],
      codeRewound: rewound.code.has(row.turn),
      conversationRewound: rewound.conversation.has(row.turn),
    }
  })
}

/** What a rewind or undo did, or why it did nothing. */
export type RewindOutcome =
  | { readonly kind: 'done'; readonly record: RewindRecord; readonly unrestorable: RewindPlan['unrestorable'] }
  | { readonly kind: 'conflicts'; readonly conflicts: RewindPlan['conflicts'] }
  | { readonly kind: 'refused'; readonly errors: readonly string[] }

/** Options of a rewind. */
export interface RewindRunOptions {
  readonly force: boolean
  readonly probe?: RewindProbe
}

/** Rewinds to before `request.toTurn`. */
export function rewindTo(session: WritableSession, directory: CheckpointDirectory, request: RewindRequest, options: RewindRunOptions): RewindOutcome {
  const plan = planRewind(session, directory, directory.rewinds(), request, { force: options.force })
  if (plan.errors.length > 0) return { kind: 'refused', errors: plan.errors }
  if (plan.conflicts.length > 0) return { kind: 'conflicts', conflicts: plan.conflicts }
  const removedNodes = plan.surfaceStart === undefined ? [] : session.surface.slice(plan.surfaceStart)
  const record: RewindRecord = {
    version: 1,
    id: newRewindId(),
    time: new Date().toISOString(),
    kind: 'rewind',
    toTurn: request.toTurn,
    lastTurn: currentTurn(session),
    turns: plan.turns,
    code: request.code,
    conversation: request.conversation && removedNodes.length > 0,
    removedNodes,
    files: plan.files.map((file) => ({ path: file.path, target: file.target, prior: file.now })),
  }
  executeRewind(directory, session, record, options.probe)
  return { kind: 'done', record, unrestorable: plan.unrestorable }
}

/** Undoes the latest rewind that is not undone yet. */
export function undoRewind(session: WritableSession, directory: CheckpointDirectory, options: RewindRunOptions): RewindOutcome {
  const records = directory.rewinds()
  const last = lastOpenRewind(records)
  if (last === undefined) return { kind: 'refused', errors: [`session ${session.header.id} has no rewind to undo`] }
  if (currentTurn(session) > last.lastTurn) return { kind: 'refused', errors: [`turns ran in session ${session.header.id} after its last rewind; rewind again with --to instead of undoing it`] }
  if (last.conversation && markerIndex(session, last.id) !== session.surface.length - 1) return { kind: 'refused', errors: [`the conversation of session ${session.header.id} changed after its last rewind (it was compacted); the rewind cannot be undone`] }
  const conflicts: { path: string; diff: string[] }[] = []
  const files: { path: string; target: FileState; prior: FileState }[] = []
  for (const file of last.files) {
    const { state: now } = captureState(file.path, directory.objects, DEFAULT_MAX_FILE_BYTES)
    if (!sameState(now, file.target) && !options.force) conflicts.push({ path: file.path, diff: shortDiff(file.target, now, directory.objects) })
    const health = file.prior.kind === 'file' ? directory.objects.check(file.prior.blob) : 'ok'
    if (health !== 'ok' && file.prior.kind === 'file') return { kind: 'refused', errors: [`checkpoint object ${directory.objects.fileOf(file.prior.blob)} for ${file.path} is ${health}; nothing was restored`] }
    if (file.prior.kind === 'not-kept') continue
    files.push({ path: file.path, target: file.prior, prior: now })
  }
  if (conflicts.length > 0) return { kind: 'conflicts', conflicts }
  const record: RewindRecord = {
    version: 1,
    id: newRewindId(),
    time: new Date().toISOString(),
    kind: 'undo',
    undoes: last.id,
    lastTurn: currentTurn(session),
    turns: last.turns,
    code: last.code,
    conversation: last.conversation,
    removedNodes: last.removedNodes,
    files,
  }
  executeRewind(directory, session, record, options.probe)
  return { kind: 'done', record, unrestorable: [] }
}
