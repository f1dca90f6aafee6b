/**
 * `/rewind` for editors: advertised to the client as an available command of every session, and
 * answered instead of a model turn when a prompt starts with it (list, preview, `N yes`, `undo`;
 * see @dsh/checkpoints' rewind-command-text). The files are put back on disk, where the editor
 * sees them; the answer is one `agent_message_chunk`.
 */
import type { AgentContext, AvailableCommand, PromptResponse, SessionUpdate } from '@agentclientprotocol/sdk'
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

/** Tells the client which commands the session has (sent after `session/new` and `session/load`). */
export function advertiseCommands(client: AgentContext, sessionId: string, log: (line: string) => void): void {
  // A client gone before the list reached it needs none; the failure is worth a line, never a crash.
  const failed = (error: unknown): void => log(`session ${sessionId}: the command list was not sent: ${error instanceof Error ? error.message : String(error)}`)
  try {
    client.notify('session/update', { sessionId, update: { sessionUpdate: 'available_commands_update', availableCommands: [rewindCommand] } }).catch(failed)
  } catch (error) {
    // Thrown at once when the connection is already closed.
    failed(error)
  }
}
