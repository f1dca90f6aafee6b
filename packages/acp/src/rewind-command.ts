/**
 * `/rewind` for editors: advertised to the client as an available command of every session (see
 * slash-commands.ts), and
 * answered instead of a model turn when a prompt starts with it (list, preview, `N yes`, `undo`;
 * see @dsh/checkpoints' rewind-command-text). The files are put back on disk, where the editor
 * sees them; the answer is one `agent_message_chunk`.
 */
import type { AvailableCommand, PromptResponse, SessionUpdate } from '@agentclientprotocol/sdk'
import { CheckpointDirectory, rewindCommandText } from '@dsh/checkpoints'
import type { Agent } from '@dsh/runtime'

/** The command as the client lists it. */
export const rewindCommand: AvailableCommand = {
  name: 'rewind',
  description: 'list the turns with their changed files; "N" previews a rewind to before turn N, "N yes" does it, "undo" undoes the last rewind',
  input: { hint: 'N [code|conversation] [yes] | undo' },
}

/** The arguments when `text` is a `/rewind` command, else undefined. */
export function rewindArguments(text: string): string[] | undefined {
  const match = /^\s*\/rewind(?:\s+(.*))?$/s.exec(text)
  if (match === null) return undefined
  return (match[1] ?? '').split(/\s+/).filter((word) => word !== '')
}

/** Runs the command on the prompt's agent and sends its answer. */
export function answerRewind(agent: Agent, dshHome: string, args: readonly string[], send: (update: SessionUpdate) => void): PromptResponse {
  const lines = rewindCommandText(agent.session, new CheckpointDirectory(dshHome, agent.session.id), args)
  send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `${lines.join('\n')}\n` } })
  return { stopReason: 'end_turn' }
}
