/**
 * What the ACP agent app needs from its composition (types only). The composition (the CLI's
 * `dsh acp`) builds the host with `askThroughClient(registry)` as its `askPermission`, then hands
 * the same registry here, so permission questions reach the editor of the session that asks.
 */
import type { McpServer } from '@agentclientprotocol/sdk'
import type { CommandPlace, ExpandedPrompt } from '@dsh/contracts'
import type { Host, StartAgentOptions, ToolRegistry } from '@dsh/runtime'
import type { AcpSessionRegistry } from './session-registry.ts'

/** Inputs of the ACP agent app. */
export interface AcpAgentDeps {
  /** The composed host; every session of the connection runs on it. Disposing it is the caller's. */
  readonly host: Host
  /** The sessions of the connection (shared with the host's `askPermission`). */
  readonly registry: AcpSessionRegistry
  /**
   * `startAgent` options (provider, step limit, request log, …) for a session working in canonical
   * `cwd`; `sessionId` names the stored session being continued (its endpoint may differ).
   */
  readonly startOptions: (cwd: string, sessionId?: string) => StartAgentOptions
  /**
   * Validates additional directories (absolute) of a session working in canonical `primary` the
   * way `--add-dir` is validated: resolves with a one-line refusal naming the first invalid one,
   * or undefined. Must not create anything.
   */
  readonly checkDirectories: (primary: string, dirs: readonly string[]) => Promise<string | undefined>
  /** Directories every session gets besides the client's (`dsh acp --add-dir`; absolute). */
  readonly extraDirectories: readonly string[]
  /** `agentInfo` of `initialize`. */
  readonly agentInfo: { readonly name: string; readonly title: string; readonly version: string }
  /** Diagnostics (stderr; never stdout, which carries only the protocol). */
  readonly log: (line: string) => void
  /** Custom commands and user-invocable skills of a working directory (absent: `/name` prompts go as typed). */
  readonly commands?: AcpCommands
  /**
   * Runs when a session ends on this connection (`session/close`; the composition calls it for
   * every session left when the connection ends): the SessionEnd hooks. Must not reject.
   */
  readonly sessionEnd?: (session: { readonly id: string; readonly cwd: string }, reason: string) => Promise<void>
  /**
   * After a prompt has answered, `notice` runs once for the session if no prompt comes within
   * `afterMs` (the Notification hooks' `idle_prompt`); closing the session cancels it. Must not throw.
   */
  readonly idle?: { readonly afterMs: number; readonly notice: (session: { readonly id: string; readonly cwd: string }) => void }
  /** The permission modes the editor's mode picker offers (absent: no modes, `session/set_mode` is unknown). */
  readonly modes?: AcpModes
  /** Connects the MCP servers an editor sends with `session/new` / `session/load` (absent: they are ignored with a warning). */
  readonly mcp?: AcpMcpServers
}

/** One mode as the editor lists it. */
export interface AcpMode {
  readonly id: string
  readonly name: string
  readonly description?: string
}

/** The permission modes of the connection's sessions. */
export interface AcpModes {
  /** The modes every session may switch to, in the order the editor lists them (the start mode among them). */
  readonly available: readonly AcpMode[]
  /** The mode in force for a session (its own switch, else its start mode). Never throws. */
  current(sessionId: string): string
  /** Switches a session's mode from its next decision on; a one-line refusal (nothing changed) when it cannot. */
  set(sessionId: string, modeId: string): string | undefined
}

/** The MCP servers of ACP sessions. */
export interface AcpMcpServers {
  /** Whether `http` entries can be connected (advertised as `mcpCapabilities.http`). */
  readonly http: boolean
  /**
   * Starts `servers` in the background for one session (the first prompt never waits for them);
   * `undefined` when none is usable. Problems are the composition's to log.
   */
  open(session: SessionPlaceInfo, servers: readonly McpServer[]): SessionServers | undefined
}

/** Where a session works, as its MCP servers are told (`roots/list`). */
export interface SessionPlaceInfo {
  readonly id: string
  /** Canonical working directory. */
  readonly cwd: string
  /** Canonical additional directories. */
  readonly additional: readonly string[]
}

/** The running MCP servers of one session. */
export interface SessionServers {
  /** The host's tools and this session's servers' tools (`startAgent`'s `tools`). */
  readonly tools: ToolRegistry
  /** Ends the servers (the session was closed or replaced, or the connection ended). */
  close(): Promise<void>
  /** Their prompts as `/name` commands, after the composition's own. */
  readonly commands?: SessionCommands
}

/** The `/name` commands of one session's MCP servers. */
export interface SessionCommands {
  /** The commands offered now. */
  list(): readonly { readonly name: string; readonly description: string; readonly hint?: string }[]
  /** The text to send for `text` when it names one of them (unchanged otherwise). */
  expand(text: string): Promise<string>
  /** Calls `listener` when the list may have changed; returns its disposer. */
  onChange(listener: () => void): () => void
}

/** What the composition offers as `/name` commands. */
export interface AcpCommands {
  /** The invocable names of `place` with a one-line description and argument hint. May reject (logged). */
  list(place: CommandPlace): Promise<readonly { readonly name: string; readonly description: string; readonly hint?: string }[]>
  /** What to send for a prompt typed in `place`: the expanded body of a known `/name` (with its events), else the text unchanged. May reject (logged; the text goes as typed). */
  expand(text: string, place: CommandPlace): Promise<ExpandedPrompt>
  /** Calls `listener` when the list may have changed (an MCP server listed its prompts); returns its disposer. */
  onChange?(listener: () => void): () => void
}
