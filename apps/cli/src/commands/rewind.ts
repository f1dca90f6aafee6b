/**
 * `dsh rewind ID --list | --to N [--code-only | --conversation-only] [--force] | --undo` and
 * `dsh checkpoints prune --older-than AGE`: thin wrappers over @dsh/checkpoints. The session is
 * opened holding its lock (a session another process runs is refused, naming that process), and an
 * interrupted earlier rewind is finished or rolled back before anything else.
 */
import { relative } from 'node:path'
import { CheckpointDirectory, listTurns, notKeptText, parseAge, pruneCheckpoints, recoverRewind, rewindTo, undoRewind, type FileState, type Recovery, type RewindOutcome, type RewindProbe } from '@dsh/checkpoints'
import { errorMessage, type Session } from '@dsh/runtime'
import { terminalLine } from '@dsh/workspace-context'
import { usageError } from '../cli-error.ts'
import { errLine, type CliIo } from '../cli-io.ts'
import { dshHomeFrom } from '../global-options.ts'
import { storeFor } from '../session-store-for.ts'

/** Options of `dsh rewind`. */
export interface RewindOptions {
  readonly dshHome?: string
  readonly list?: boolean
  readonly to?: string
  readonly codeOnly?: boolean
  readonly conversationOnly?: boolean
  readonly undo?: boolean
  readonly force?: boolean
}

const shown = (cwd: string, path: string): string => {
  const inner = relative(cwd, path)
  return terminalLine(inner !== '' && !inner.startsWith('..') ? inner : path)
}

/** Test hook: `DSH_TEST_REWIND_PAUSE=<step>` stops the process at that step (crash campaigns SIGKILL it there). */
function probeFrom(io: CliIo): RewindProbe | undefined {
  const pause = io.env['DSH_TEST_REWIND_PAUSE']
  if (pause === undefined || pause === '') return undefined
  let index = 0
  return (step) => {
    index++
    if (step === pause || String(index) === pause) {
      errLine(io, `paused at ${step}`)
      // oxlint-disable-next-line no-constant-condition -- waits for the test's SIGKILL, by design
      for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000)
    }
  }
}

function stateWord(state: FileState): string {
  return state.kind === 'absent' ? 'removed' : 'restored'
}

function report(io: CliIo, cwd: string, outcome: RewindOutcome, what: string): number {
  switch (outcome.kind) {
    case 'refused':
      for (const error of outcome.errors) errLine(io, `dsh: ${terminalLine(error)}`)
      return 1
    case 'conflicts':
      errLine(io, `dsh: ${outcome.conflicts.length} file${outcome.conflicts.length === 1 ? ' was' : 's were'} changed outside dsh since the session last wrote ${outcome.conflicts.length === 1 ? 'it' : 'them'}; nothing was changed (--force restores anyway):`)
      for (const conflict of outcome.conflicts) {
        errLine(io, `  ${shown(cwd, conflict.path)}`)
        for (const line of conflict.diff) errLine(io, `    ${terminalLine(line)}`)
      }
      return 1
    case 'done': {
      const { record } = outcome
      const parts = [`${record.files.length} file${record.files.length === 1 ? '' : 's'} ${record.kind === 'undo' ? 'put back' : 'restored'}`]
      if (record.conversation) parts.push(record.kind === 'undo' ? 'conversation given back' : 'conversation taken back')
      io.stdout.write(`${what}: ${parts.join(', ')}${record.turns.length === 0 ? '' : ` (turns ${record.turns.join(', ')})`}\n`)
      for (const file of record.files) io.stdout.write(`  ${stateWord(file.target)} ${shown(cwd, file.path)}\n`)
      for (const file of outcome.unrestorable) io.stdout.write(`  not restorable: ${shown(cwd, file.path)} (${file.state.kind === 'not-kept' ? notKeptText(file.state.reason) : 'not kept'})\n`)
      return 0
    }
    default: {
      const unreachable: never = outcome
      return Number(unreachable)
    }
  }
}

/** Opens the session locked and finishes an interrupted rewind; a session another process runs is only read. */
function openForList(io: CliIo, id: string, dshHome: string): Session {
  const store = storeFor(io, dshHome)
  let session: Session
  try {
    session = store.open(id)
  } catch (error) {
    // Busy (another process runs it) or unwritable: list it read-only; an unknown id fails in load.
    const loaded = store.load(id)
    if (new CheckpointDirectory(dshHome, loaded.id).journal() !== undefined) errLine(io, `warning: a rewind of session ${loaded.id} was interrupted (${errorMessage(error)}); the next dsh rewind of it finishes or rolls it back`)
    return loaded
  }
  recovered(io, session, recoverRewind(new CheckpointDirectory(dshHome, session.id), session))
  return session
}

function recovered(io: CliIo, session: Session, recovery: Recovery): void {
  if (recovery !== 'none') errLine(io, `note: an interrupted rewind of session ${session.id} was ${recovery === 'completed' ? 'completed' : 'rolled back'}`)
}

function listCommand(io: CliIo, id: string, dshHome: string): number {
  const session = openForList(io, id, dshHome)
  try {
    return listRows(io, session, new CheckpointDirectory(dshHome, session.id))
  } finally {
    session.close()
  }
}

function listRows(io: CliIo, session: Session, directory: CheckpointDirectory): number {
  const rows = listTurns(session, directory)
  if (rows.length === 0) {
    io.stdout.write(`session ${session.id} has no turns\n`)
    return 0
  }
  for (const row of rows) {
    const marks = [row.codeRewound ? 'files' : '', row.conversationRewound ? 'conversation' : ''].filter((mark) => mark !== '')
    const files = row.files.length === 0 ? 'no files changed' : `${row.files.length} file${row.files.length === 1 ? '' : 's'}: ${row.files.map((file) => shown(session.header.cwd, file)).join(', ')}`
    io.stdout.write(`${row.turn}  ${row.time.slice(0, 19)}Z  ${terminalLine(row.prompt.slice(0, 72))}  (${files})${marks.length === 0 ? '' : `  [rewound: ${marks.join(', ')}]`}${row.overBudget ? '  [over checkpoints.maxBytes]' : ''}\n`)
    if (row.untrackedRoots.length > 0) io.stdout.write(`   shell changes not captured in: ${row.untrackedRoots.map((root) => terminalLine(root)).join(', ')} (more than 100,000 files)\n`)
    if (row.unrestorable.length > 0) io.stdout.write(`   not restorable: ${row.unrestorable.map((file) => shown(session.header.cwd, file)).join(', ')}\n`)
  }
  return 0
}

/** Runs `dsh rewind`. */
export function rewindCommand(io: CliIo, id: string, options: RewindOptions): number {
  const dshHome = dshHomeFrom(io, options.dshHome)
  const modes = [options.list === true, options.to !== undefined, options.undo === true].filter(Boolean).length
  if (modes !== 1) throw usageError('dsh rewind needs exactly one of --list, --to N and --undo')
  if (options.codeOnly === true && options.conversationOnly === true) throw usageError('--code-only and --conversation-only exclude each other')
  if (options.list === true) return listCommand(io, id, dshHome)
  const toTurn = options.to === undefined ? undefined : Number(options.to)
  if (toTurn !== undefined && (!Number.isInteger(toTurn) || toTurn < 1)) throw usageError(`--to expects a turn number (1 or more), not "${options.to}"`)
  const session = storeFor(io, dshHome).open(id)
  try {
    const directory = new CheckpointDirectory(dshHome, session.id)
    recovered(io, session, recoverRewind(directory, session))
    const probe = probeFrom(io)
    const run = { force: options.force === true, ...(probe === undefined ? {} : { probe }) }
    if (toTurn === undefined) return report(io, session.header.cwd, undoRewind(session, directory, run), `undid the last rewind of session ${session.id}`)
    const request = { toTurn, code: options.conversationOnly !== true, conversation: options.codeOnly !== true }
    return report(io, session.header.cwd, rewindTo(session, directory, request, run), `rewound session ${session.id} to before turn ${toTurn}`)
  } finally {
    session.close()
  }
}

/** Runs `dsh checkpoints prune`. */
export function pruneCommand(io: CliIo, options: { readonly dshHome?: string; readonly olderThan?: string }): number {
  const age = parseAge(options.olderThan ?? '30d')
  if (age === undefined) throw usageError(`--older-than expects an age like 30d, 12h or 90m, not "${options.olderThan ?? ''}"`)
  const result = pruneCheckpoints({ dshHome: dshHomeFrom(io, options.dshHome), olderThanMs: age, now: new Date() })
  for (const entry of result.removed) io.stdout.write(`removed checkpoints of ${entry.sessionId} (${entry.reason})\n`)
  io.stdout.write(`${result.removed.length} removed, ${result.kept} kept\n`)
  return 0
}
