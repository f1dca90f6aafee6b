/**
 * `/rewind` in the chat (list, preview, `yes`, `undo`: see @dsh/checkpoints' rewind-command-text),
 * on the chat's live session, plugged into the chat's slash registry. Without an argument the
 * full screen opens the rewind picker (rewind-picker.ts; Esc Esc at an idle empty prompt opens it
 * too); the plain line mode lists the turns. A rewind that takes back the conversation of a turn
 * puts that turn's prompt back in an empty prompt, to be edited and sent again (as Claude Code
 * does).
 */
import { CheckpointDirectory, listTurns, rewindCommandText } from '@dsh/checkpoints'
import type { SlashCommandSpec } from '@dsh/tui'
import { pickRewind } from './rewind-picker.ts'

type Session = Parameters<typeof listTurns>[0]

/** The prompt of the earliest turn whose conversation became rewound since `before` was taken, if any. */
function rewoundPrompt(session: Session, directory: CheckpointDirectory, before: ReadonlySet<number>): string | undefined {
  const turn = listTurns(session, directory).find((row) => row.conversationRewound && !before.has(row.turn))
  return turn === undefined || turn.promptText.trim() === '' ? undefined : turn.promptText
}

/** The command for a chat whose home is `dshHome`. */
export function rewindChatCommand(dshHome: string): SlashCommandSpec {
  return {
    name: 'rewind',
    // The full grammar (with code|conversation) is in the answer to a bad argument; /help keeps one line.
    usage: '/rewind [N|undo]',
    help: 'pick a turn to rewind to (or Esc Esc); "N" previews, "N yes" rewinds, "undo" takes it back',
    run: async ({ controller, view, signal }, args) => {
      const session = controller.agent.session
      const directory = new CheckpointDirectory(dshHome, session.id)
      const before = new Set(listTurns(session, directory).flatMap((row) => (row.conversationRewound ? [row.turn] : [])))
      const lines = args.length === 0 && view.modalLists ? await pickRewind({ session, directory, view, signal }) : rewindCommandText(session, directory, args)
      view.statusChanged()
      const prompt = rewoundPrompt(session, directory, before)
      if (prompt !== undefined) view.restoreDraft(prompt)
      return lines
    },
  }
}
