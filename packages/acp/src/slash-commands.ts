/**
 * Commands over ACP: the composition's `commands` (absent: none) and the prompts of the session's
 * own MCP servers expand a `/name args` prompt before it is sent, and the session's commands (the
 * built-in `/rewind` first) are advertised to the client as one `available_commands_update` per
 * session: after the `session/new` answer, after a `session/load` replay, or else before the first
 * prompt's updates. When the list changes later (an MCP server listed its prompts, a turn's catalog
 * announced a nested skill), the whole list is sent again, replacing the first. A failing lookup is logged and the prompt goes as typed.
 */
import type { AgentContext, AvailableCommand, SessionUpdate } from '@agentclientprotocol/sdk'
import type { ExpandedPrompt, SessionView } from '@dsh/contracts'
import { errorMessage } from '@dsh/runtime'
import type { AcpAgentDeps } from './acp-contract.ts'
import { rewindCommand } from './rewind-command.ts'
import type { AcpSession } from './session-registry.ts'

/** The session's additional directories (canonical): their skills expand and are advertised too. */
const additionalOf = (session: AcpSession): string[] => session.directories.slice(1).map((directory) => directory.canonical)

/** The prompt text to send for `text` typed in `session` (`view`: its open dsh session, whose announced nested skills count). */
export async function expandSlash(deps: AcpAgentDeps, session: AcpSession, text: string, view: SessionView): Promise<ExpandedPrompt> {
  let expanded: ExpandedPrompt = { text, events: [] }
  try {
    expanded = (await deps.commands?.expand(text, { cwd: session.cwd, additionalRoots: additionalOf(session), session: view })) ?? expanded
  } catch (error) {
    // The command files could not be read now: the prompt is sent as the client typed it.
    deps.log(`warning: session ${session.id}: custom commands could not be read: ${errorMessage(error)}`)
  }
  // Not one of the composition's commands: perhaps a prompt of the session's own MCP servers.
  if (expanded.text !== text || session.servers?.commands === undefined) return expanded
  return { text: await session.servers.commands.expand(text), events: [] }
}

/**
 * The update advertising `session`'s commands — the built-in `/rewind`, then the custom commands
 * and skills — once per session on this connection; `undefined` when already sent. Each update
 * replaces the client's list, so there is only one.
 */
export async function commandsUpdate(deps: AcpAgentDeps, session: AcpSession): Promise<SessionUpdate | undefined> {
  if (session.commandsAnnounced) return undefined
  session.commandsAnnounced = true
  return listUpdate(deps, session)
}

/** After a prompt: the list again with the session as the turn left it, when it changed (nested skills joined). */
export async function refreshedCommands(deps: AcpAgentDeps, session: AcpSession, view: SessionView): Promise<SessionUpdate | undefined> {
  session.lastView = view
  if (!session.commandsAnnounced) return undefined
  const before = session.commandsSent
  const update = await listUpdate(deps, session)
  return session.commandsSent === before ? undefined : update
}

async function listUpdate(deps: AcpAgentDeps, session: AcpSession): Promise<SessionUpdate> {
  const availableCommands = [rewindCommand, ...(await customCommands(deps, session))]
  session.commandsSent = JSON.stringify(availableCommands)
  return { sessionUpdate: 'available_commands_update', availableCommands }
}

/**
 * Sends `session`'s whole command list again through `client` whenever the composition's or its
 * servers' commands change and the list differs from the one sent (once one was sent); the
 * disposer is the session's.
 */
export function watchCommands(deps: AcpAgentDeps, session: AcpSession, client: AgentContext): void {
  let queue = Promise.resolve()
  const changed = (): void => {
    queue = queue.then(async () => {
      if (!session.commandsAnnounced) return
      const before = session.commandsSent
      const update = await listUpdate(deps, session)
      if (session.commandsSent !== before) await client.notify('session/update', { sessionId: session.id, update })
    }).catch((error: unknown) => deps.log(`session ${session.id}: the command list was not sent again: ${errorMessage(error)}`))
  }
  for (const dispose of [deps.commands?.onChange?.(changed), session.servers?.commands?.onChange(changed)]) if (dispose !== undefined) session.disposers.push(dispose)
}

async function customCommands(deps: AcpAgentDeps, session: AcpSession): Promise<AvailableCommand[]> {
  if (deps.commands === undefined) return (session.servers?.commands?.list() ?? []).map((item) => ({ name: item.name, description: item.description, ...(item.hint === undefined ? {} : { input: { hint: item.hint } }) }))
  try {
    // The built-in `/rewind` shadows a command file of that name.
    const listed = [...(await deps.commands.list({ cwd: session.cwd, additionalRoots: additionalOf(session), ...(session.lastView === undefined ? {} : { session: session.lastView }) })), ...(session.servers?.commands?.list() ?? [])].filter((item) => item.name !== rewindCommand.name)
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
