/**
 * What a product gives the chat front end (types only): the composed host, how to start agents,
 * the model in use and how to switch it, the workspace inspection behind `/context`, the approval
 * mode, prices for the cost figure, and the process streams. The CLI builds it from its options
 * (`apps/cli/src/chat/chat-command.ts`); nothing here parses options or composes plugins.
 */
import type { ChatRequestBody, ModelProvider } from '@dsh/contracts'
import type { Agent, Host, StartAgentOptions } from '@dsh/runtime'
import type { DiagnosticsRelay } from './diagnostics-relay.ts'
import type { ModelPrices } from './status/usage-meter.ts'
import type { ShellRunner } from './shell-line.ts'

/** A model the chat can run on. */
export interface ModelChoice {
  /** What the banner and status line show (`deepseek:deepseek-v4-flash`). */
  readonly label: string
  /** The provider. */
  readonly provider: ModelProvider
  /** Prices per million tokens, when known; the cost figure is shown only then. */
  readonly prices?: ModelPrices
}

/** One allow or deny rule in force for a session, and where it was written. */
export interface PermissionRuleRow {
  readonly effect: 'allow' | 'deny'
  /** The rule as written (`bash(npm test:*)`). */
  readonly text: string
  /** Where it comes from (`config file /x/dsh.yaml`, `command line`, `this session`). */
  readonly source: string
  /** True for session rules ("allow always" answers), which `/permissions remove` can take away. */
  readonly removable: boolean
}

/** The permission mode and rules of the chat's sessions, for `/mode` and `/permissions`. */
export interface ChatPermissions {
  /** The session's mode as the status line shows it (`ask before bash, run_code`). */
  readonly label: (agent: Agent) => string
  /** The session's mode name (`ask`). */
  readonly mode: (agent: Agent) => string
  /** The mode names `/mode` may switch to in this chat. */
  readonly switchable: readonly string[]
  /** Switches the session's mode; returns a one-line refusal (nothing changed) or undefined. */
  readonly setMode: (agent: Agent, mode: string) => string | undefined
  /** Every rule in force for the session, deny rules first. */
  readonly rules: (agent: Agent) => readonly PermissionRuleRow[]
  /** Removes a session rule (recorded in the session log); false when there is no such session rule. */
  readonly forget: (agent: Agent, rule: string) => boolean
}

/** One MCP server as `/mcp` lists it. */
export interface McpServerRow {
  readonly name: string
  /** `stdio` or `http URL`. */
  readonly transport: string
  /** Where it was configured (`user`, `project`, `.mcp.json`, `--mcp-config`, `config`). */
  readonly source: string
  /** `connected, 3 tools`, `failed: REASON`, `untrusted`, `disabled`, `starting`. */
  readonly state: string
  /** The prefix of its tools' model names (`mcp__github__`): what `/mcp disable` hides. */
  readonly toolPrefix: string
}

/** The MCP servers of the chat's host, for `/mcp`. */
export interface ChatMcp {
  /** Every configured server, sorted by name, with its state now. */
  readonly servers: () => readonly McpServerRow[]
}

/** The chat's surroundings. */
export interface ChatEnvironment {
  /** The composed host (the caller disposes it). */
  readonly host: Host
  /** Resolved `$DSH_HOME` (prompt history lives under it). */
  readonly dshHome: string
  /** Canonical working directory of new sessions. */
  readonly cwd: string
  /** Product version for the banner. */
  readonly version: string
  /** The model at start. */
  readonly model: ModelChoice
  /** `startAgent` options; `resume` continues a stored session. The chat sets the provider. */
  readonly startOptions: (resume?: string) => StartAgentOptions
  /** Resolves a model spec for `/model`; throws an error with a one-line message for a bad one. */
  readonly switchModel?: (spec: string) => ModelChoice
  /**
   * The model a stored session continues with: the endpoint it ran with unless a flag or the
   * config chose otherwise (it becomes the chat's model); undefined: keep the current model.
   * Asked whenever a stored session is opened (`/resume`, the start-up picker, `--continue`).
   */
  readonly modelForResume?: (sessionId: string) => ModelChoice | undefined
  /** Ask the model for `/compact` summaries (else the deterministic one). */
  readonly modelSummaries: boolean
  /** The request log, for model calls made outside a turn (`/compact`). */
  readonly onRequest?: (body: ChatRequestBody) => void
  /** The instruction-file report of a directory (first half of `/context`), one line each. */
  readonly inspectWorkspace: (cwd: string, signal: AbortSignal) => Promise<string[]>
  /**
   * Prepares a session the chat switches to (`/resume`, `/new`) before its first prompt (the CLI
   * grants the chat's `--add-dir` directories to it); returns lines to show. A rejection abandons
   * the switch: the session is closed again and the current one stays.
   */
  readonly prepareSwitch?: (agent: Agent) => Promise<readonly string[]>
  /**
   * Runs before the chat leaves a session: `clear` (`/new`), `other` (`/resume` to another one),
   * `prompt_input_exit` (the chat ends). The CLI runs the SessionEnd hooks. Must not reject.
   */
  readonly sessionEnd?: (agent: Agent, reason: 'clear' | 'other' | 'prompt_input_exit') => Promise<void>
  /**
   * The prompt has waited `afterMs` for the person since a turn ended (nothing typed): the CLI runs
   * the Notification hooks (`idle_prompt`). Once per wait; a key resets it. Must not throw.
   */
  readonly idle?: { readonly afterMs: number; readonly notice: (agent: Agent) => void }
  /** Runs `!command` lines (shell-line.ts); absent: such a line is sent as a prompt. */
  readonly shell?: ShellRunner
  /** The available additional workspace roots of an agent's session (status line count, `/diff`); none when absent. */
  readonly additionalRoots?: (agent: Agent) => readonly string[]
  /**
   * DeepSeek's thinking fields the next request carries (command line, else settings.yaml `model`,
   * else the config file), for `/status`; absent fields are not sent. Absent: not shown.
   */
  readonly thinkingModes?: () => { readonly thinking?: string | undefined; readonly reasoningEffort?: string | undefined }
  /** How tool calls are approved at start, for the banner (and the status line without `permissions`). */
  readonly approvalMode: string
  /** The sessions' permission mode and rules; without it `/mode` and `/permissions` only show `approvalMode`. */
  readonly permissions?: ChatPermissions
  /** The MCP servers; absent when none is configured (`/mcp` says so). */
  readonly mcp?: ChatMcp
  /** Environment variables (HOME, NO_COLOR, TERM). */
  readonly env: Readonly<Record<string, string | undefined>>
  /** Diagnostics sink (stderr). */
  readonly log: (line: string) => void
  /**
   * The relay the host's diagnostics go through, when the product composed the host with it: the
   * full-screen UI shows them in the transcript while it draws (a line written to the terminal
   * behind its back would be drawn over). Without it, diagnostics go wherever `log` sends them.
   */
  readonly diagnostics?: DiagnosticsRelay
}
