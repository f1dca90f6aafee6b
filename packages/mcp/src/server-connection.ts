/**
 * One live connection to one server: the SDK client over the stdio transport (its own process
 * group) or Streamable HTTP (falling back to SSE), the `initialize` handshake and the first tool
 * listing within the startup timeout, `roots/list` answered from the session's roots, tool list
 * changes re-listed (a failed refresh keeps the old list), its prompts listed with the tools (a
 * failed prompt listing leaves it none; re-listed on change), calls with cancellation and progress,
 * and one reconnect after the server went away. Never throws from `start`; `call` rejects only
 * with the SDK's errors, which the tool adapter turns into error results.
 */
import { Client, SSEClientTransport, StreamableHTTPClientTransport, type CallToolResult, type GetPromptResult, type Prompt, type Tool, type Transport } from '@modelcontextprotocol/client'
import { errorMessage, proxiedFetch, proxySettings, proxyUrlFor, type ProxiedFetch } from '@dsh/runtime'
import { serverEnvironment } from './child-env.ts'
import { guardToolLists } from './list-guard.ts'
import { StderrTail } from './stderr-tail.ts'
import { GroupStdioTransport } from './stdio-transport.ts'
import type { McpLimits, ServerEntry, ServerState } from './types.ts'

/** A root as MCP sends it. */
export interface McpRoot {
  readonly uri: string
  readonly name?: string
}

/** What a connection needs from its host. */
export interface ConnectionDeps {
  /** The session's working directory (stdio servers start there). */
  readonly cwd: string
  readonly limits: McpLimits
  /** dsh's environment (only the minimal variables are passed on). */
  readonly env: Readonly<Record<string, string | undefined>>
  /** The process marker every stdio server process carries (the host's exit hook ends them). */
  readonly marker: () => { readonly name: string; readonly value: string }
  /** The roots to answer `roots/list` with. */
  readonly roots: () => readonly McpRoot[]
  /** Called when the state or the tool list changed. */
  readonly onChange: () => void
  /** dsh's version, sent as clientInfo. */
  readonly version: string
}

/** Thrown by `call` when the server cannot be reached, with the stderr lines to quote. */
export class ServerUnavailableError extends Error {
  readonly code = 'MCP_SERVER_UNAVAILABLE'
}

function timedOut(ms: number): string {
  return `timed out after ${ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`}`
}

/** One server's connection. */
export class ServerConnection {
  readonly entry: ServerEntry
  readonly stderr = new StderrTail()
  readonly #deps: ConnectionDeps
  #client: Client | undefined
  #transport: Transport | undefined
  #state: ServerState = { kind: 'starting' }
  #tools: readonly Tool[] = []
  #prompts: readonly Prompt[] = []
  #closing = false
  #reconnected = false
  #starting: Promise<void> | undefined

  constructor(entry: ServerEntry, deps: ConnectionDeps) {
    this.entry = entry
    this.#deps = deps
  }

  get state(): ServerState {
    return this.#state
  }

  /** The tools of the last successful listing. */
  get tools(): readonly Tool[] {
    return this.#tools
  }

  /** The prompts of the last successful listing (none until listed, or when the server offers none). */
  get prompts(): readonly Prompt[] {
    return this.#prompts
  }

  /** Connects and lists the tools; resolves when connected or failed (never rejects). */
  start(): Promise<void> {
    this.#starting ??= this.#connect().finally(() => {
      this.#starting = undefined
    })
    return this.#starting
  }

  async #connect(): Promise<void> {
    this.#state = { kind: 'starting' }
    const client = new Client(
      { name: 'dsh', version: this.#deps.version },
      {
        capabilities: { roots: { listChanged: true } },
        listChanged: {
          tools: {
            onChanged: (error, tools) => {
              // A failed refresh keeps the old list (the server is still usable).
              if (error !== null || tools === null || this.#client !== client) return
              this.#tools = tools
              this.#state = { kind: 'connected', tools: tools.length }
              this.#deps.onChange()
            },
          },
          prompts: {
            onChanged: (error, prompts) => {
              // As for tools: a failed refresh keeps the old list.
              if (error !== null || prompts === null || this.#client !== client) return
              this.#prompts = prompts
              this.#deps.onChange()
            },
          },
        },
      },
    )
    client.setRequestHandler('roots/list', () => ({ roots: this.#deps.roots().map((root) => ({ ...root })) }))
    const transport = guardToolLists(this.#newTransport())
    this.#transport = transport
    const timeoutMs = this.#deps.limits.startupTimeoutMs
    let timer: NodeJS.Timeout | undefined
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(timedOut(timeoutMs))), timeoutMs)
    })
    try {
      await Promise.race([this.#handshake(client, transport), deadline])
      if (this.#closing) throw new Error('closed')
      this.#client = client
      // The SDK's close callback (a property of the client, not an event emitter).
      // oxlint-disable-next-line unicorn/prefer-add-event-listener
      client.onclose = () => this.#lost(client)
      const listed = await Promise.race([client.listTools(undefined, { timeout: timeoutMs }), deadline])
      this.#tools = listed.tools
      this.#prompts = await Promise.race([this.#listPrompts(client, timeoutMs), deadline])
      this.#state = { kind: 'connected', tools: listed.tools.length }
    } catch (error) {
      this.#client = undefined
      this.#state = { kind: 'failed', reason: this.#reason(error) }
      await transport.close().catch(() => undefined)
    } finally {
      clearTimeout(timer)
    }
    this.#deps.onChange()
  }

  async #listPrompts(client: Client, timeoutMs: number): Promise<readonly Prompt[]> {
    if (client.getServerCapabilities()?.prompts === undefined) return []
    try {
      return (await client.listPrompts(undefined, { timeout: timeoutMs, cacheMode: 'bypass' })).prompts
    } catch {
      // A server whose prompts cannot be listed still offers its tools; it just has no prompts.
      return []
    }
  }

  async #handshake(client: Client, transport: Transport): Promise<void> {
    if (this.entry.config.transport === 'stdio' || !(transport instanceof StreamableHTTPClientTransport)) {
      await client.connect(transport)
      return
    }
    try {
      await client.connect(transport)
    } catch (error) {
      // A server of the old HTTP+SSE transport answers the Streamable HTTP POST with 4xx: try SSE once.
      const fallback = guardToolLists(new SSEClientTransport(new URL(this.entry.config.url), { requestInit: { headers: { ...this.entry.config.headers } }, ...this.#viaProxy(this.entry.config.url) }))
      this.#transport = fallback
      await transport.close().catch(() => undefined)
      try {
        await client.connect(fallback)
      } catch {
        // The Streamable HTTP error is the one worth reporting.
        throw error
      }
    }
  }

  #newTransport(): Transport {
    const config = this.entry.config
    if (config.transport === 'http') return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: { ...config.headers } }, ...this.#viaProxy(config.url) })
    const env = serverEnvironment(this.#deps.env, config.env, this.#deps.marker())
    return new GroupStdioTransport({ command: config.command, args: config.args, cwd: config.cwd ?? this.#deps.cwd, env, stderr: this.stderr })
  }

  /** The `fetch` option that sends a remote server's requests through the proxy dsh's environment names for `url` (none: direct). */
  #viaProxy(url: string): { readonly fetch?: ProxiedFetch } {
    const settings = proxySettings(this.#deps.env)
    if (settings === undefined || proxyUrlFor(settings, url) === undefined) return {}
    return { fetch: proxiedFetch(settings) }
  }

  #reason(error: unknown): string {
    const message = errorMessage(error)
    if (/ENOENT/.test(message) && this.entry.config.transport === 'stdio') return `command not found: ${this.entry.config.command}`
    if (/Connection closed/i.test(message)) {
      const last = this.stderr.lines(1)[0]
      return last === undefined ? 'the server exited at start' : `the server exited at start: ${last}`
    }
    return message.split('\n')[0] ?? message
  }

  #lost(client: Client): void {
    if (this.#client !== client || this.#closing) return
    this.#client = undefined
    const last = this.stderr.lines(1)[0]
    this.#state = { kind: 'failed', reason: last === undefined ? 'the server exited' : `the server exited: ${last}` }
    this.#deps.onChange()
  }

  /** Calls a tool by its server-side name; reconnects once if the server went away earlier. */
  async call(name: string, args: Record<string, unknown>, options: { readonly signal: AbortSignal; readonly onProgress?: () => void }): Promise<CallToolResult> {
    // The listed definition is passed along: without it the SDK looks the tool up in a response cache whose timers keep the process alive for a minute.
    const definition = this.#tools.find((tool) => tool.name === name)
    if (this.#client === undefined && !this.#closing && !this.#reconnected && this.#state.kind === 'failed') {
      this.#reconnected = true
      await this.start()
    }
    const client = this.#client
    if (client === undefined) throw new ServerUnavailableError(this.#state.kind === 'failed' ? this.#state.reason : 'not connected')
    try {
      return await client.callTool(
        { name, arguments: args },
        { signal: options.signal, timeout: this.#deps.limits.callTimeoutMs, resetTimeoutOnProgress: true, onprogress: () => options.onProgress?.(), ...(definition === undefined ? {} : { toolDefinition: definition }) },
      )
    } catch (error) {
      if (this.#client === client || options.signal.aborted) throw error
      // The server went away during the call: say so with what it last wrote.
      throw new ServerUnavailableError(this.#state.kind === 'failed' ? this.#state.reason : errorMessage(error))
    }
  }

  /** Gets a prompt's messages by its server-side name. */
  async getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    const client = this.#client
    if (client === undefined) throw new ServerUnavailableError(this.#state.kind === 'failed' ? this.#state.reason : 'not connected')
    return client.getPrompt({ name, arguments: args }, { timeout: this.#deps.limits.callTimeoutMs })
  }

  /** Tells the server the roots changed (ignored when it is not connected). */
  rootsChanged(): void {
    // A server that went away or does not listen cannot be told; nothing else depends on it.
    this.#client?.sendRootsListChanged().catch(() => undefined)
  }

  /** Ends the connection and the server's processes. */
  async close(): Promise<void> {
    this.#closing = true
    const client = this.#client
    this.#client = undefined
    // The transport may already be gone (a crashed server); closing again is harmless.
    await client?.close().catch(() => undefined)
    await this.#transport?.close().catch(() => undefined)
    await this.#starting?.catch(() => undefined)
  }

  /** SIGKILLs a stdio server's group now (dsh is exiting). */
  killNow(): void {
    if (this.#transport instanceof GroupStdioTransport) this.#transport.killNow()
  }
}
