/**
 * The ACP sessions of one connection: for each session id (the dsh session id) the directories
 * as the client spelled them and the prompt running now (its cancel switch and the client context
 * that asks permission questions). "Allow always" answers are the permission policy's session
 * rules, kept in the session's log, not here. The agent of a
 * session exists only while a prompt runs (see `prompt-turn.ts`), so the session lock is free
 * whenever the session is idle; what must outlive one prompt lives here.
 */
import { RequestError, type AgentContext, type ClientCapabilities, type SessionUpdate } from '@agentclientprotocol/sdk'
import type { AgentHandle, SessionView, ToolExecutionToken } from '@dsh/contracts'
import type { SessionServers } from './acp-contract.ts'
import { PathSpelling, type SpelledDirectory } from './path-spelling.ts'

/** How far up a subagent's ancestors are looked at (delegation depth is small; this bounds a cycle). */
const maxAncestors = 32

/** The prompt a session is answering. */
export interface RunningPrompt {
  /** Cancels it (`session/cancel`, the connection closing). */
  readonly controller: AbortController
  /** Asks the client (permission questions, file reads and writes). */
  readonly client: AgentContext
  /** Sends a `session/update` in order with the prompt's other updates. */
  readonly send: (update: SessionUpdate) => void
  /** Resolves once every update sent so far has gone out (a question must follow its call's `tool_call`). */
  readonly flush: () => Promise<void>
  /** The ACP tool call id of a call of the current step (see `tool-call-id.ts`). */
  readonly toolCallId: (callId: string) => string
  /** Foreign calls announced to the client and not finished yet, by execution token (see `foreign-calls.ts`). */
  readonly announced: Map<ToolExecutionToken, string>
  /** Resolves once the prompt has answered and the session is idle again. */
  readonly settled: Promise<void>
}

/** One ACP session. */
export class AcpSession {
  /** The dsh session id (also the ACP session id). */
  readonly id: string
  /** Working directory and additional directories, canonical and as the client spelled them. */
  readonly directories: readonly [SpelledDirectory, ...SpelledDirectory[]]
  /** Paths in the client's spelling. */
  readonly spelling: PathSpelling
  /** The prompt running now, if any. */
  running: RunningPrompt | undefined
  /** Whether `available_commands_update` was sent for this session on this connection. */
  commandsAnnounced = false
  /** The MCP servers the editor sent for this session, while they run. */
  servers: SessionServers | undefined
  /** The command list last sent (JSON), to send a changed one only. */
  commandsSent: string | undefined
  /** The dsh session as the last prompt left it: the nested skills its catalog announced are commands too. */
  lastView: SessionView | undefined
  /** Run when the session ends on this connection (closed, replaced, the connection ended). */
  readonly disposers: (() => void)[] = []
  /** The idle notice armed after the last prompt (see {@link waitForPerson}). */
  #idleTimer: ReturnType<typeof setTimeout> | undefined

  constructor(id: string, directories: readonly [SpelledDirectory, ...SpelledDirectory[]]) {
    this.id = id
    this.directories = directories
    this.spelling = new PathSpelling(directories)
  }

  /** Ends what lives with the session on this connection: its watchers and its MCP servers (once). */
  async end(): Promise<void> {
    this.stopWaiting()
    for (const dispose of this.disposers.splice(0)) dispose()
    const servers = this.servers
    this.servers = undefined
    await servers?.close()
  }

  /** After a prompt: `notice` runs once if no prompt comes within `afterMs` (unref'd: it never keeps the server alive). */
  waitForPerson(afterMs: number, notice: () => void): void {
    this.stopWaiting()
    this.#idleTimer = setTimeout(notice, afterMs)
    this.#idleTimer.unref()
  }

  /** A prompt came, or the session ended: no idle notice. */
  stopWaiting(): void {
    clearTimeout(this.#idleTimer)
    this.#idleTimer = undefined
  }

  /** The canonical working directory. */
  get cwd(): string {
    return this.directories[0].canonical
  }

  /** The additional directories as the client spelled them (granted again at every prompt). */
  get additional(): readonly string[] {
    return this.directories.slice(1).map((directory) => directory.spelled)
  }
}

/** Every session of one connection, and what the client said it can do. */
export class AcpSessionRegistry {
  readonly #sessions = new Map<string, AcpSession>()
  /** Set by `initialize`. */
  capabilities: ClientCapabilities = {}

  /** Refuses to replace a session while it answers a prompt (`session/load` of a known id). */
  checkReplaceable(id: string): void {
    if (this.#sessions.get(id)?.running !== undefined) throw RequestError.invalidRequest({ sessionId: id }, `session ${id} is answering a prompt`)
  }

  /** Adds (or replaces, for `session/load` of a known id, ending the replaced one's MCP servers) a session; refused while that id answers a prompt. */
  add(session: AcpSession): AcpSession {
    this.checkReplaceable(session.id)
    const replaced = this.#sessions.get(session.id)
    this.#sessions.set(session.id, session)
    void replaced?.end()
    return session
  }

  /** The session `id`, if open on this connection. */
  find(id: string): AcpSession | undefined {
    return this.#sessions.get(id)
  }

  /** The session `id`; a JSON-RPC "resource not found" error when it is not open on this connection. */
  require(id: string): AcpSession {
    const session = this.#sessions.get(id)
    if (session === undefined) throw RequestError.sessionNotFound(id)
    return session
  }

  /** The parent session id of a stored session (set by the app: the host's session headers). */
  parentOf: (sessionId: string) => string | undefined = () => undefined

  /** The session an agent works for: its own, or (a subagent at any depth) its nearest ancestor's. */
  owning(agent: AgentHandle | undefined): AcpSession | undefined {
    if (agent === undefined) return undefined
    let id: string | undefined = agent.id
    let parent = agent.session.header.parentSession
    for (let depth = 0; id !== undefined && depth < maxAncestors; depth++) {
      const session = this.#sessions.get(id)
      if (session !== undefined) return session
      id = parent
      parent = id === undefined ? undefined : this.parentOf(id)
    }
    return undefined
  }

  /** Cancels the session's prompt, waits until it has wound down, and forgets the session; undefined when it is not open. */
  async close(id: string): Promise<AcpSession | undefined> {
    const session = this.#sessions.get(id)
    if (session === undefined) return undefined
    session.running?.controller.abort()
    while (session.running !== undefined) await session.running.settled
    // A session/load of the same id while this one wound down replaced it: that one stays open.
    if (this.#sessions.get(id) === session) this.#sessions.delete(id)
    // Its MCP servers and watchers end with it (a replaced one's ended when it was replaced).
    await session.end()
    return session
  }

  /** Closes every session (the connection ended: their prompts are cancelled and waited for); resolves with them. */
  async closeAll(): Promise<AcpSession[]> {
    const closed = await Promise.all([...this.#sessions.keys()].map((id) => this.close(id)))
    return closed.filter((session) => session !== undefined)
  }
}
