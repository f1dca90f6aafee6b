/**
 * The `/rewind` command of the interactive front ends (`dsh chat`, `dsh acp`) as text: no
 * argument lists the turns with the files each changed; `N` (optionally `code` or `conversation`)
 * previews what a rewind to before turn N would change and changes nothing; `N … yes` rewinds;
 * `undo` undoes the last rewind. It runs on the front end's open session (no turn runs meanwhile).
 * Control characters in stored text are made visible.
 */
import { relative } from 'node:path'
import type { RewindOutcome } from './rewind-session.ts'
import type { CheckpointDirectory } from './checkpoint-directory.ts'
import type { WritableSession } from './conversation-marker.ts'
import { planRewind } from './rewind-plan.ts'
import { listTurns, rewindTo, undoRewind } from './rewind-session.ts'

/** Usage line of the command. */
export const REWIND_USAGE = '/rewind [N [code|conversation] [yes] | undo]'

// oxlint-disable-next-line no-control-regex -- control characters are exactly what is replaced
const safe = (text: string): string => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`)

const shown = (cwd: string, path: string): string => {
  const inner = relative(cwd, path)
  return safe(inner !== '' && !inner.startsWith('..') ? inner : path)
}

function outcomeLines(cwd: string, outcome: RewindOutcome): string[] {
  switch (outcome.kind) {
    case 'refused':
      return outcome.errors.map(safe)
    case 'conflicts':
      return ['nothing was changed: these files changed outside dsh since the session last wrote them (dsh rewind ID --to N --force restores anyway):', ...outcome.conflicts.flatMap((conflict) => [`  ${shown(cwd, conflict.path)}`, ...conflict.diff.map((line) => `    ${safe(line)}`)])]
    case 'done': {
      const { record } = outcome
      return [
        `${record.kind === 'undo' ? 'undid the last rewind' : `rewound to before turn ${record.toTurn ?? ''}`}: ${record.files.length} file${record.files.length === 1 ? '' : 's'}${record.conversation ? ', conversation' : ''}`,
        ...record.files.map((file) => `  ${file.target.kind === 'absent' ? 'removed' : 'restored'} ${shown(cwd, file.path)}`),
      ]
    }
    default: {
      const unreachable: never = outcome
      return [String(unreachable)]
    }
  }
}

/** Runs `/rewind ARGS` on `session`; returns the lines to show. */
export function rewindCommandText(session: WritableSession, directory: CheckpointDirectory, args: readonly string[]): string[] {
  const cwd = session.header.cwd
  try {
    if (args.length === 0) {
      const rows = listTurns(session, directory)
      if (rows.length === 0) return ['no turns yet']
      return [
        ...rows.map((row) => `${row.turn}  ${safe(row.prompt.slice(0, 60))}  (${row.files.length === 0 ? 'no files' : row.files.map((file) => shown(cwd, file)).join(', ')})${row.codeRewound || row.conversationRewound ? '  [rewound]' : ''}`),
        '/rewind N shows what a rewind to before turn N changes; /rewind N yes does it',
      ]
    }
    if (args[0] === 'undo') return outcomeLines(cwd, undoRewind(session, directory, { force: false }))
    const toTurn = Number(args[0])
    if (!Number.isInteger(toTurn) || toTurn < 1) return [`usage: ${REWIND_USAGE} (not "${safe(args.join(' '))}")`]
    const request = { toTurn, code: !args.includes('conversation'), conversation: !args.includes('code') }
    if (args.includes('yes')) return outcomeLines(cwd, rewindTo(session, directory, request, { force: false }))
    const plan = planRewind(session, directory, directory.rewinds(), request, { force: false })
    return [
      `a rewind to before turn ${toTurn} would change:`,
      ...plan.files.map((file) => `  ${file.target.kind === 'absent' ? 'remove' : 'restore'} ${shown(cwd, file.path)}`),
      ...(plan.files.length === 0 && request.code ? ['  no files'] : []),
      ...(plan.surfaceStart === undefined ? [] : [`  the conversation from turn ${toTurn} on (${session.surface.length - plan.surfaceStart} messages leave the model's view)`]),
      ...plan.unrestorable.map((file) => `  not restorable: ${shown(cwd, file.path)}`),
      ...plan.conflicts.map((conflict) => `  changed outside dsh (blocks the rewind): ${shown(cwd, conflict.path)}`),
      ...plan.errors.map((error) => `  problem: ${safe(error)}`),
      `/rewind ${args.join(' ')} yes does it`,
    ]
  } catch (error) {
    // A turn out of range or a corrupt checkpoint file: its one line is the answer.
    return [safe(error instanceof Error ? error.message : String(error))]
  }
}
