/**
 * `/rewind` in the chat: with no argument, the session's turns with the files each changed; with
 * `N` (optionally `code` or `conversation`), a preview of what a rewind to before turn N would
 * change, and nothing else; with `N … yes`, the rewind itself; `undo` undoes the last rewind. It
 * works on the chat's live session (no turn runs while a command does).
 */
import { relative } from 'node:path'
import { CheckpointDirectory, listTurns, planRewind, rewindTo, undoRewind, type RewindOutcome } from '@dsh/checkpoints'
import type { SlashCommandSpec } from '@dsh/tui'
import { terminalLine } from '@dsh/workspace-context'

const shown = (cwd: string, path: string): string => {
  const inner = relative(cwd, path)
  return terminalLine(inner !== '' && !inner.startsWith('..') ? inner : path)
}

function outcomeLines(cwd: string, outcome: RewindOutcome): string[] {
  switch (outcome.kind) {
    case 'refused':
      return outcome.errors.map((error) => terminalLine(error))
    case 'conflicts':
      return ['nothing was changed: these files changed outside dsh since the session last wrote them (dsh rewind ID --to N --force restores anyway):', ...outcome.conflicts.flatMap((conflict) => [`  ${shown(cwd, conflict.path)}`, ...conflict.diff.map((line) => `    ${terminalLine(line)}`)])]
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

/** The command for a chat whose home is `dshHome`. */
export function rewindChatCommand(dshHome: string): SlashCommandSpec {
  return {
    name: 'rewind',
    usage: '/rewind [N [code|conversation] [yes] | undo]',
    help: 'list turns; preview a rewind to before turn N; "yes" does it; undo the last rewind',
    run: ({ controller, view }, args) => {
      const session = controller.agent.session
      const cwd = session.header.cwd
      const directory = new CheckpointDirectory(dshHome, session.id)
      if (args.length === 0) {
        const rows = listTurns(session, directory)
        if (rows.length === 0) return 'no turns yet'
        return [
          ...rows.map((row) => `${row.turn}  ${terminalLine(row.prompt.slice(0, 60))}  (${row.files.length === 0 ? 'no files' : row.files.map((file) => shown(cwd, file)).join(', ')})${row.codeRewound || row.conversationRewound ? '  [rewound]' : ''}`),
          '/rewind N shows what a rewind to before turn N changes; /rewind N yes does it',
        ]
      }
      if (args[0] === 'undo') {
        const lines = outcomeLines(cwd, undoRewind(session, directory, { force: false }))
        view.statusChanged()
        return lines
      }
      const toTurn = Number(args[0])
      if (!Number.isInteger(toTurn) || toTurn < 1) return `usage: /rewind [N [code|conversation] [yes] | undo] (not "${terminalLine(args.join(' '))}")`
      const request = { toTurn, code: !args.includes('conversation'), conversation: !args.includes('code') }
      if (!args.includes('yes')) {
        let plan
        try {
          plan = planRewind(session, directory, directory.rewinds(), request, { force: false })
        } catch (error) {
          // A turn out of range or a corrupt checkpoint file: its one line is the answer.
          return error instanceof Error ? error.message : String(error)
        }
        return [
          `a rewind to before turn ${toTurn} would change:`,
          ...plan.files.map((file) => `  ${file.target.kind === 'absent' ? 'remove' : 'restore'} ${shown(cwd, file.path)}`),
          ...(plan.files.length === 0 && request.code ? ['  no files'] : []),
          ...(plan.surfaceStart === undefined ? [] : [`  the conversation from turn ${toTurn} on (${session.surface.length - plan.surfaceStart} messages leave the model's view)`]),
          ...plan.unrestorable.map((file) => `  not restorable: ${shown(cwd, file.path)}`),
          ...plan.conflicts.map((conflict) => `  changed outside dsh (blocks the rewind): ${shown(cwd, conflict.path)}`),
          ...plan.errors.map((error) => `  problem: ${terminalLine(error)}`),
          `/rewind ${args.join(' ')} yes does it`,
        ]
      }
      let outcome: RewindOutcome
      try {
        outcome = rewindTo(session, directory, request, { force: false })
      } catch (error) {
        // Same one-line failures as the preview's.
        return error instanceof Error ? error.message : String(error)
      }
      view.statusChanged()
      return outcomeLines(cwd, outcome)
    },
  }
}
