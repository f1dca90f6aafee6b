/**
 * Contracts of the MCP client: what a configured server is, where it came from, and the state a
 * connection is in. Types only.
 */

/** A server started as a child process speaking JSON-RPC on its stdin and stdout. */
export interface StdioServerConfig {
  readonly transport: 'stdio'
  /** Program to run (looked up on PATH when not absolute). */
  readonly command: string
  /** Its arguments. */
  readonly args: readonly string[]
  /** Variables added to the minimal environment (child-env.ts); nothing else of dsh's environment is passed. */
  readonly env: Readonly<Record<string, string>>
  /** Working directory; absent: the session's working directory. */
  readonly cwd?: string
}

/** A server reached over Streamable HTTP (the SDK falls back to the old SSE transport). */
export interface HttpServerConfig {
  readonly transport: 'http'
  /** http:// or https:// URL of the MCP endpoint. */
  readonly url: string
  /** Extra request headers (authorisation and the like). */
  readonly headers: Readonly<Record<string, string>>
}

/** How to reach one server. */
export type ServerTransportConfig = StdioServerConfig | HttpServerConfig

/** Per-server options that do not depend on the transport. */
export interface ServerOptions {
  /** Only these tools (names as the server spells them) are offered; absent: all. */
  readonly enabledTools?: readonly string[]
  /** These tools are never offered. */
  readonly disabledTools?: readonly string[]
}

/** Where a server's configuration came from (what `dsh mcp list` shows). */
export type ServerSource = 'user' | 'project' | '.mcp.json' | '--mcp-config' | 'config' | 'editor'

/** One configured server. */
export interface ServerEntry {
  /** Name as configured (the `<server>` part of tool names is derived from it). */
  readonly name: string
  readonly source: ServerSource
  /** The file it was read from, when it came from a file. */
  readonly file?: string
  readonly config: ServerTransportConfig
  readonly options: ServerOptions
  /** Why it is not started: an untrusted `.mcp.json`, or disabled by `dsh mcp disable`. */
  readonly blocked?: 'untrusted' | 'disabled'
}

/** A connection's state as front ends show it. */
export type ServerState =
  | { readonly kind: 'starting' }
  | { readonly kind: 'connected'; readonly tools: number }
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'untrusted' }
  | { readonly kind: 'disabled' }

/** Settings shared by every server (the config file's `mcp` section, defaults applied). */
export interface McpLimits {
  /** How long a server may take to connect and list its tools (default 60000 ms). */
  readonly startupTimeoutMs: number
  /** How long one call may go without a result or progress (default 600000 ms). */
  readonly callTimeoutMs: number
  /** Characters of one result the model sees (default 100000). */
  readonly maxOutputChars: number
  /** Above this many MCP tools in all, schemas are deferred behind `mcp_tool_schema` (default 40). */
  readonly deferAboveTools: number
}

/** A server prompt offered as the slash command `/<name>`. */
export interface PromptCommand {
  /** `mcp__<server>__<prompt>` (named like tools; unique among prompts). */
  readonly name: string
  readonly server: string
  /** The server's own name of the prompt. */
  readonly prompt: string
  /** One line: the prompt's description, else its title, else `MCP prompt of <server>`. */
  readonly description: string
  /** `<required> [optional]` of its arguments; absent when it takes none. */
  readonly hint?: string
}

/** What a typed `/mcp__<server>__<prompt> words` became. */
export type PromptExpansion =
  /** The prompt's messages as the text of one user message. */
  | { readonly kind: 'expanded'; readonly text: string }
  /** No prompt has that name. */
  | { readonly kind: 'unknown' }
  /** The words do not fit its arguments, or the server failed: one line to show the user. */
  | { readonly kind: 'failed'; readonly message: string }
