/**
 * Carrying out a rewind atomically. Before any file changes, the journal (every file's target and
 * the state it holds now) is written durably; then the files are put back; then the rewind record
 * is written (the commit point); then the conversation marker is appended to the session log; then
 * the journal is removed. `recoverRewind`, run before any other rewind of the session, finishes a
 * journal whose record exists (files again, marker if missing) and rolls back one whose record
 * does not (every file to the state it held before), removing the rewind's temp files either way.
 */
import { randomUUID } from 'node:crypto'
import { readdirSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { RewindFile, RewindRecord } from './checkpoint-types.ts'
import type { CheckpointDirectory } from './checkpoint-directory.ts'
import { appendMarker, hasMarker, type WritableSession } from './conversation-marker.ts'
import { applyState } from './file-state.ts'

/** Test hook: called between the steps of a rewind with the step's name (crash campaigns kill the process there). */
export type RewindProbe = (step: string) => void

/** Removes what an interrupted {@link applyState} may have left next to `path`. */
function removeTempSiblings(path: string): void {
  const prefix = `.${basename(path)}.dsh-rewind-`
  let names: string[]
  try {
    names = readdirSync(dirname(path))
  } catch {
    // The directory is gone: no temp file can be in it.
    return
  }
  for (const name of names) if (name.startsWith(prefix) && name.endsWith('.tmp')) rmSync(join(dirname(path), name), { force: true })
}

/** Puts every file of `files` at the state `pick` chooses. */
function applyAll(directory: CheckpointDirectory, files: readonly RewindFile[], pick: (file: RewindFile) => RewindFile['target'], probe?: RewindProbe): void {
  for (const file of files) {
    removeTempSiblings(file.path)
    applyState(file.path, pick(file), directory.objects)
    probe?.(`file:${file.path}`)
  }
}

/** A fresh record id. */
export const newRewindId = (): string => randomUUID()

/** Runs a planned rewind (or undo) described by `record`; `session` receives the marker. */
export function executeRewind(directory: CheckpointDirectory, session: WritableSession, record: RewindRecord, probe?: RewindProbe): void {
  directory.saveJournal({ version: 1, record })
  probe?.('journal')
  applyAll(directory, record.files, (file) => file.target, probe)
  directory.saveRewind(record)
  probe?.('record')
  if (record.conversation) appendMarker(session, record)
  probe?.('marker')
  directory.clearJournal()
}

/** What recovery did. */
export type Recovery = 'none' | 'completed' | 'rolled-back'

/** Finishes or rolls back a rewind a crash interrupted (see the module header). */
export function recoverRewind(directory: CheckpointDirectory, session: WritableSession): Recovery {
  const journal = directory.journal()
  if (journal === undefined) return 'none'
  const { record } = journal
  if (directory.hasRewind(record.id)) {
    applyAll(directory, record.files, (file) => file.target)
    if (record.conversation && !hasMarker(session, record.id)) appendMarker(session, record)
    directory.clearJournal()
    return 'completed'
  }
  applyAll(directory, record.files, (file) => file.prior)
  directory.clearJournal()
  return 'rolled-back'
}
