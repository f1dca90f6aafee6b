/**
 * `/rewind` in the chat (list, preview, `yes`, `undo`: see @dsh/checkpoints' rewind-command-text),
 * on the chat's live session, plugged into the chat's slash registry.
 */
import { CheckpointDirectory, rewindCommandText } from '@dsh/checkpoints'
import type { SlashCommandSpec } from '@dsh/tui'

/** The command for a chat whose home is `dshHome`. */
export function rewindChatCommand(dshHome: string): SlashCommandSpec {
  return {
    name: 'rewind',
    // The full grammar (with code|conversation) is in the answer to a bad argument; /help keeps one line.
    usage: '/rewind [N|undo]',
    help: 'list turns; "N" previews a rewind to before turn N, "N yes" does it, "undo" takes it back',
    run: ({ controller, view }, args) => {
      const session = controller.agent.session
      const lines = rewindCommandText(session, new CheckpointDirectory(dshHome, session.id), args)
      view.statusChanged()
      return lines
    },
  }
}
