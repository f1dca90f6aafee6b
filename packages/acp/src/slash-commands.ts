/**
 * Commands over ACP: the composition's `commands` (absent: none) expand a `/name args` prompt
 * before it is sent, and the session's commands (the built-in `/rewind` first) are advertised to
 * the client as one `available_commands_update` per session: after the `session/new` answer,
 * after a `session/load` replay, or else before the first prompt's updates. A failing lookup is
 * logged and the prompt goes as typed.
 */
import type { AgentContext, AvailableCommand, SessionUpdate } from '@agentclientprotocol/sdk'
import type { ExpandedPrompt } from '@dsh/contracts'
import { errorMessage } from '@dsh/runtime'
import type { AcpAgentDeps } from './acp-contract.ts'
import { rewindCommand } from './rewind-command.ts'
import type { AcpSession } from './session-registry.ts'

/** The prompt text to send for `text` typed in `session`. */
export async function expandSlash(deps: AcpAgentDeps, session: AcpSession, text: string): Promise<ExpandedPrompt> {
  if (deps.commands === undefined) return { text, events: [] }
  try {
    return await deps.commands.expand(text, session.cwd)
  } catch (error) {
    // The command files could not be read now: the prompt is sent as the client typed it.
    deps.log(`warning: session ${session.id}: custom commands could not be read: ${errorMessage(error)}`)
    return { text, events: [] }
  }
}

/**
 * The update advertising `session`'s commands — the built-in `/rewind`, then the custom commands
 * and skills — once per session on this connection; `undefined` when already sent. Each update
 * replaces the client's list, so there is only one.
 */
export async function commandsUpdate(deps: AcpAgentDeps, session: AcpSession): Promise<SessionUpdate | undefined> {
  if (session.commandsAnnounced) return undefined
  session.commandsAnnounced = true
  return { sessionUpdate: 'available_commands_update', availableCommands: [rewindCommand, ...(await customCommands(deps, session))] }
}

async function customCommands(deps: AcpAgentDeps, session: AcpSession): Promise<AvailableCommand[]> {
  if (deps.commands === undefined) return []
  try {
    // The built-in `/rewind` shadows a command file of that name.
    const listed = (await deps.commands.list(session.cwd)).filter((item) => item.name !== rewindCommand.name)
    return listed.map((item) => ({ name: item.name, description: item.description, ...(item.hint === undefined ? {} : { input: { hint: item.hint } }) }))
  } catch (error) {
    // Only the built-in command is advertised now; `/name` prompts still expand when the files can be read then.
    deps.log(`warning: session ${session.id}: custom commands could not be listed: ${errorMessage(error)}`)
    return []
  }
}

/** Sends the commands of a new session (after its `session/new` answer); a failure is a log line. */
export async function advertiseCommands(deps: AcpAgentDeps, client: AgentContext, sessionId: string): Promise<void> {
  const session = deps.registry.find(sessionId)
  if (session === undefined) return
  try {
    const update = await commandsUpdate(deps, session)
    if (update !== undefined) await client.notify('session/update', { sessionId, update })
  } catch (error) {
    // A client gone before the list reached it needs none; worth a line, never a crash.
    deps.log(`session ${sessionId}: the command list was not sent: ${errorMessage(error)}`)
  }
}
