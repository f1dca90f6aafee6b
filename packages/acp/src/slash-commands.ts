/**
 * Custom commands over ACP: the composition's `commands` (absent: none) expand a `/name args`
 * prompt before it is sent, and the session's invocable names are advertised to the client as
 * one `available_commands_update` per session when it has any (after a `session/load` replay, else before the
 * first prompt's updates). A failing lookup is logged and the prompt goes as typed.
 */
import type { AvailableCommand, SessionUpdate } from '@agentclientprotocol/sdk'
import { errorMessage } from '@dsh/runtime'
import type { AcpAgentDeps } from './acp-contract.ts'
import { rewindCommand } from './rewind-command.ts'
import type { AcpSession } from './session-registry.ts'

/** The prompt text to send for `text` typed in `session`. */
export async function expandSlash(deps: AcpAgentDeps, session: AcpSession, text: string): Promise<string> {
  if (deps.commands === undefined) return text
  try {
    return await deps.commands.expand(text, session.cwd)
  } catch (error) {
    // The command files could not be read now: the prompt is sent as the client typed it.
    deps.log(`warning: session ${session.id}: custom commands could not be read: ${errorMessage(error)}`)
    return text
  }
}

/** The update advertising `session`'s commands once; `undefined` when already sent or there are none to offer. */
export async function commandsUpdate(deps: AcpAgentDeps, session: AcpSession): Promise<SessionUpdate | undefined> {
  if (deps.commands === undefined || session.commandsAnnounced) return undefined
  session.commandsAnnounced = true
  try {
    // The built-in `/rewind` shadows a command file of that name.
    const listed = (await deps.commands.list(session.cwd)).filter((item) => item.name !== rewindCommand.name)
    if (listed.length === 0) return undefined
    // Each update replaces the client's list: the built-in command stays in it.
    const availableCommands: AvailableCommand[] = [rewindCommand, ...listed.map((item) => ({ name: item.name, description: item.description, ...(item.hint === undefined ? {} : { input: { hint: item.hint } }) }))]
    return { sessionUpdate: 'available_commands_update', availableCommands }
  } catch (error) {
    // Nothing to advertise now; `/name` prompts still expand when the files can be read then.
    deps.log(`warning: session ${session.id}: custom commands could not be listed: ${errorMessage(error)}`)
    return undefined
  }
}
