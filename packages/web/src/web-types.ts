/**
 * Contracts of the web host: what the composition hands to the server (the environment), and the
 * events a page receives over Server-Sent Events. Types only.
 */
import type { CommandPlace, ExpandedPrompt, Message } from '@dsh/contracts'
import type { OperatorService } from '@dsh/maintainer-doc-guard'
import type { Agent, AgentProgress, Host, StartAgentOptions } from '@dsh/runtime'
import type { ApprovalBridge, ApprovalView } from './approval-bridge.ts'
import type { UsagePrices } from './usage-view.ts'

/** Everything the server needs from the composition; it never composes a host itself. */
export interface WebEnvironment {
  /** The composed host; the server starts and resumes agents on it and never disposes it. */
  readonly host: Host
  /** Canonical working directory: the only directory whose sessions the page can list or open. */
  readonly cwd: string
  /** Options of `host.startAgent`; `resume` continues a stored session. */
  readonly startOptions: (resume?: string) => StartAgentOptions
  /** The maintainer-documents operator service; absent while the guard is off. */
  readonly docs?: OperatorService | undefined
  /** The answer side of the host's `askPermission` (created before the host, see `createApprovalBridge`). */
  readonly approvals: ApprovalBridge
  /** Lines of the instruction-file inspection of `cwd` (what `/context` shows first); must not throw. */
  readonly inspectWorkspace: (cwd: string, signal: AbortSignal) => Promise<string[]>
  /** Lines saying which instruction files are active in a session's visible history, and why. */
  readonly sessionContext: (messages: readonly Message[]) => string[]
  /** Runs on every agent the server starts or resumes, before it is used (grants `--add-dir`). */
  readonly prepareAgent?: (agent: Agent) => Promise<void>
  /** The user's home and `$DSH_HOME`: a folder added there (or a system directory) gets a warning. */
  readonly homes: { readonly home: string; readonly dshHome: string }
  /** The model's context window in tokens (the page shows the context in use against it; 0 or absent: unknown). */
  readonly contextWindow?: number
  /** The model's prices (config `model.prices`): the usage line shows the cost only with them. */
  readonly prices?: UsagePrices | undefined
  /** Diagnostics sink. */
  readonly log: (line: string) => void
  /** The host's MCP servers with their states now, sorted by name (absent or empty: none configured). */
  readonly mcpServers?: () => readonly McpServerView[]
  /** Custom commands and user-invocable skills (absent: `/name` prompts go as typed, nothing is completed). */
  readonly commands?: WebCommands
  /** The permission modes the page's mode menu offers (absent: no menu). */
  readonly modes?: WebModes
  /** Runs before a live session's agent is closed (the server ends): the SessionEnd hooks. Must not reject. */
  readonly sessionEnd?: (agent: Agent, reason: string) => Promise<void>
  /**
   * After a turn ends, `notice` runs once if no message arrives within `afterMs` (the Notification
   * hooks' `idle_prompt`); a new prompt or closing the session before that cancels it. Must not throw.
   */
  readonly idle?: { readonly afterMs: number; readonly notice: (agent: Agent) => void }
}

/** The permission modes of the host's sessions, switched by session id. */
export interface WebModes {
  /** The modes every session may switch to, in menu order (the start mode among them). */
  readonly available: readonly { readonly id: string; readonly name: string; readonly description: string }[]
  /** The mode in force for a session. Never throws. */
  current(sessionId: string): string
  /** Switches a session's mode from its next decision on; a one-line refusal (nothing changed) when it cannot. */
  set(sessionId: string, modeId: string): string | undefined
}

/** One MCP server as the Context tab lists it. */
export interface McpServerView {
  readonly name: string
  /** `stdio` or `http URL`. */
  readonly transport: string
  /** Where it was configured (`user`, `project`, `.mcp.json`, `--mcp-config`, `config`). */
  readonly source: string
  /** `connected, 3 tools`, `failed: REASON`, `untrusted`, `disabled`, `starting`. */
  readonly state: string
}

/** What the composition offers as `/name` commands. */
export interface WebCommands {
  /** The invocable names of `place` with a one-line description and argument hint. May reject. */
  list(place: CommandPlace): Promise<readonly { readonly name: string; readonly description: string; readonly hint?: string }[]>
  /** What to send for a prompt typed in `place`: the expanded body of a known `/name` (with its events), else the text unchanged. May reject. */
  expand(text: string, place: CommandPlace): Promise<ExpandedPrompt>
}

/** One event on a session's stream. */
export type WebEvent =
  | { /** Agent progress as it happens (text deltas, tool calls, turn end). */ readonly kind: 'progress'; readonly event: AgentProgress }
  | { /** A prompt was accepted (the page shows it even when another tab sent it). */ readonly kind: 'prompt'; readonly text: string }
  | { /** A permission question waits for an answer. */ readonly kind: 'approval'; readonly approval: ApprovalView }
  | { /** A question was answered (or its call ended); remove it. */ readonly kind: 'approval-done'; readonly id: string }
  | { /** The session started or stopped running a turn. */ readonly kind: 'busy'; readonly busy: boolean }
  | { /** A turn failed; one line for the person. */ readonly kind: 'error'; readonly message: string }
  | { /** The session's permission mode was switched (by any tab). */ readonly kind: 'mode'; readonly mode: string }

/**
 * One message of the browser-wide stream (`GET /api/stream`): every live session's events, each
 * with its session and number, so one connection serves every tab of a browser (the page shares it
 * between its tabs) and a page knows which events its history read already holds.
 */
export type StreamMessage =
  | { /** Sent once on connect: the page (re)reads what it shows, then applies what follows. */ readonly kind: 'hello' }
  | { /** An event of a live session; `seq` counts that session's events from 1. */ readonly kind: 'session'; readonly session: string; readonly seq: number; readonly event: WebEvent }
  | { /** A session was started, opened or closed: the sessions list changed. */ readonly kind: 'sessions' }
  | { /** The session was closed (on any page or by a script): a page showing it shows that instead. */ readonly kind: 'closed'; readonly session: string }
