/**
 * `/rewind` in the chat (list, preview, `yes`, `undo`: see @dsh/checkpoints' rewind-command-text),
 * on the chat's live session, plugged into the chat's slash registry. Without an argument the
 * full screen opens the rewind picker (rewind-picker.ts; Esc Esc at an idle empty prompt opens it
 * too); the plain line mode lists the turns.
 */
import { CheckpointDirectory, rewindCommandText } from '@dsh/checkpoints'
import type { SlashCommandSpec } from '@dsh/tui'
import { pickRewind } from './rewind-picker.ts'

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
      const lines = args.length === 0 && view.modalLists ? await pickRewind({ session, directory, view, signal }) : rewindCommandText(session, directory, args)
      view.statusChanged()
      return lines
    },
  }
}
