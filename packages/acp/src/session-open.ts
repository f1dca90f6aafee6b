/**
 * `session/new` and `session/load`. Both take the working directory and the additional
 * directories as the client spells them: the working directory must be an existing directory,
 * and the client's additional ones are validated like `--add-dir` before anything is created; a
 * refusal is a JSON-RPC invalid-params error naming the directory (a `dsh acp --add-dir` directory
 * that cannot be a root of the session is left out of it with a warning on stderr). A new
 * session is created and its file closed at once (its lock is taken again for each prompt). A
 * load reads the stored session without locking it, refuses another working directory than the
 * session's own, and replays its visible history as `session/update`s before it answers. The
 * MCP servers the client sends (`mcpServers`) start in the background for that session only;
 * they end when the session is closed or loaded again, or the connection ends. Both answers carry
 * the session's permission modes (session-modes.ts).
 */
import { statSync } from 'node:fs'
import { isAbsolute } from 'node:path'
import { RequestError, type AgentContext, type LoadSessionRequest, type LoadSessionResponse, type McpServer, type NewSessionRequest, type NewSessionResponse } from '@agentclientprotocol/sdk'
import { errorMessage, type Session } from '@dsh/runtime'
import type { AcpAgentDeps } from './acp-contract.ts'
import { canonicalDirectory } from './canonical-directory.ts'
import { commandsUpdate, watchCommands } from './slash-commands.ts'
import { replayHistory } from './history-replay.ts'
import { modeStateOf } from './session-modes.ts'
import type { SpelledDirectory } from './path-spelling.ts'
import { AcpSession } from './session-registry.ts'

interface SessionPlace {
  readonly cwd: string
  readonly additionalDirectories?: readonly string[] | undefined
  readonly mcpServers: readonly McpServer[]
}

function workingDirectory(spelled: string): string {
  if (!isAbsolute(spelled)) throw RequestError.invalidParams({ cwd: spelled }, `cwd ${spelled}: not an absolute path`)
  let directory = false
  try {
    directory = statSync(spelled).isDirectory()
  } catch (error) {
    // Missing or not accessible: reported as input the client must fix.
    throw RequestError.invalidParams({ cwd: spelled }, `cwd ${spelled}: ${errorMessage(error)}`)
  }
  if (!directory) throw RequestError.invalidParams({ cwd: spelled }, `cwd ${spelled}: not a directory`)
  return canonicalDirectory(spelled)
}

/**
 * The `dsh acp --add-dir` directories that can be roots of a session in `cwd` besides the client's
 * (`requested`): one that cannot (the session works in it, or inside it) is left out of that
 * session with a warning, since the editor did not ask for it and could not fix it.
 */
async function extraDirectories(deps: AcpAgentDeps, cwd: string, requested: readonly string[]): Promise<string[]> {
  const kept: string[] = []
  for (const dir of deps.extraDirectories) {
    const refusal = await deps.checkDirectories(cwd, [...requested, ...kept, dir])
    if (refusal === undefined) kept.push(dir)
    else deps.log(`warning: --add-dir ${dir} is not a root of the session in ${cwd}: ${refusal}`)
  }
  return kept
}

/** The session's directories in both spellings, validated. */
async function placeOf(deps: AcpAgentDeps, params: SessionPlace): Promise<[SpelledDirectory, ...SpelledDirectory[]]> {
  const cwd = workingDirectory(params.cwd)
  const requested = params.additionalDirectories ?? []
  const refusal = await deps.checkDirectories(cwd, requested)
  if (refusal !== undefined) throw RequestError.invalidParams({ additionalDirectories: requested }, `additionalDirectories: ${refusal}`)
  const additional = [...requested, ...(await extraDirectories(deps, cwd, requested))]
  return [{ canonical: cwd, spelled: params.cwd }, ...additional.map((dir) => ({ canonical: canonicalDirectory(dir), spelled: dir }))]
}

/** Starts the client's MCP servers for `session` (in the background), and sends its command list again when theirs or the composition's change. */
function startServers(deps: AcpAgentDeps, session: AcpSession, servers: readonly McpServer[], client: AgentContext): void {
  if (servers.length > 0 && deps.mcp === undefined) deps.log(`warning: session ${session.id}: this agent does not connect to MCP servers; ignoring ${servers.length}`)
  if (servers.length > 0 && deps.mcp !== undefined) session.servers = deps.mcp.open({ id: session.id, cwd: session.cwd, additional: session.directories.slice(1).map((directory) => directory.canonical) }, servers)
  watchCommands(deps, session, client)
}

/** Answers `session/new`. */
export async function newSession(deps: AcpAgentDeps, params: NewSessionRequest, client: AgentContext): Promise<NewSessionResponse> {
  const directories = await placeOf(deps, params)
  const stored = deps.host.sessions.create({ cwd: directories[0].canonical })
  stored.close()
  const session = deps.registry.add(new AcpSession(stored.header.id, directories))
  startServers(deps, session, params.mcpServers, client)
  return { sessionId: stored.header.id, ...modeStateOf(deps, stored.header.id) }
}

/** Answers `session/load` after replaying the history through `client`. */
export async function loadSession(deps: AcpAgentDeps, params: LoadSessionRequest, client: AgentContext): Promise<LoadSessionResponse> {
  let stored: Session
  try {
    if (deps.host.sessions.resolve(params.sessionId) !== params.sessionId) throw new Error(`no session ${params.sessionId}`)
    stored = deps.host.sessions.load(params.sessionId)
  } catch (error) {
    // An unknown, ambiguous or unreadable id: the client named a session this agent cannot load.
    throw new RequestError(-32002, `session ${params.sessionId} cannot be loaded: ${errorMessage(error)}`, { sessionId: params.sessionId })
  }
  const directories = await placeOf(deps, params)
  if (stored.header.cwd !== directories[0].canonical) throw RequestError.invalidParams({ cwd: params.cwd }, `cwd ${params.cwd}: session ${stored.header.id} works in ${stored.header.cwd} (a session keeps its directory)`)
  const session = deps.registry.add(new AcpSession(stored.header.id, directories))
  startServers(deps, session, params.mcpServers, client)
  for (const update of replayHistory(stored, session.spelling)) await client.notify('session/update', { sessionId: session.id, update })
  const commands = await commandsUpdate(deps, session)
  if (commands !== undefined) await client.notify('session/update', { sessionId: session.id, update: commands })
  return modeStateOf(deps, session.id)
}
