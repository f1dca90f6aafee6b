/**
 * The servers of one host: starts every unblocked server in the background (a first prompt never
 * waits), reports each server that cannot start in one `warning:` line, and keeps the host's tool
 * registry in step with the connected servers' tools: named `mcp__<server>__<tool>`, in a stable
 * order (server, then tool), tools whose schema the model API would reject left out with one
 * warning, deferred behind `mcp_tool_schema` above `deferAboveTools`. Its servers' prompts are
 * offered as slash commands (hub-prompts.ts); listeners hear of every change of state, tools or
 * prompts. Closing ends every server.
 */
import type { Tool } from '@modelcontextprotocol/client'
import type { ToolRegistry } from '@dsh/runtime'
import { adaptTool, oneLine } from './tool-adapter.ts'
import { assignToolNames, serverPrefix } from './tool-names.ts'
import { schemaProblem } from './tool-filter.ts'
import { ServerConnection, type ConnectionDeps, type McpRoot } from './server-connection.ts'
import { createToolSchemaTool, TOOL_SCHEMA_TOOL } from './tool-schema-tool.ts'
import { expandPromptCommand, expandTypedPrompt, promptCommands } from './hub-prompts.ts'
import type { McpLimits, PromptCommand, PromptExpansion, ServerEntry, ServerState } from './types.ts'

/** Options of {@link McpHub}. */
export interface McpHubOptions {
  readonly entries: readonly ServerEntry[]
  readonly limits: McpLimits
  readonly registry: ToolRegistry
  readonly cwd: string
  readonly env: Readonly<Record<string, string | undefined>>
  readonly marker: ConnectionDeps['marker']
  /** The roots servers are told about (default: the working directory). */
  readonly roots?: () => readonly McpRoot[]
  /** Diagnostics (`warning: …` lines). */
  readonly log: (line: string) => void
  readonly version: string
}

/** One server as front ends list it. */
export interface ServerStatus {
  readonly entry: ServerEntry
  readonly state: ServerState
  /** Its offered tools: model name and the server's own name. */
  readonly tools: readonly { readonly modelName: string; readonly tool: string }[]
  /** The last lines of its stderr. */
  readonly stderr: readonly string[]
}

/** A tool as offered, for `mcp_tool_schema` and listings. */
interface Offered {
  readonly modelName: string
  readonly server: string
  readonly tool: Tool
  readonly parameters: Record<string, unknown>
}

/** Every server of a host. */
export class McpHub {
  readonly #options: McpHubOptions
  readonly #connections = new Map<string, ServerConnection>()
  readonly #disposers: (() => void)[] = []
  readonly #toolDisposers: (() => void)[] = []
  readonly #warned = new Set<string>()
  readonly #listeners = new Set<() => void>()
  #offered: readonly Offered[] = []
  #signature = ''
  #roots: () => readonly McpRoot[]
  #closed = false

  constructor(options: McpHubOptions) {
    this.#options = options
    this.#roots = options.roots ?? (() => [{ uri: new URL(`file://${options.cwd}`).href, name: 'working directory' }])
  }

  /** Starts every unblocked server in the background. */
  start(): void {
    // A call naming a tool of a server that is still starting waits for that server (its startup timeout bounds it).
    this.#disposers.push(
      this.#options.registry.addPendingSource((name) => {
        const waits = [...this.#connections.values()].filter((connection) => connection.state.kind === 'starting' && name.startsWith(`${serverPrefix(connection.entry.name)}__`))
        return waits.length === 0 ? undefined : Promise.all(waits.map((connection) => connection.start())).then(() => undefined)
      }),
    )
    for (const entry of this.#options.entries) {
      if (entry.blocked !== undefined) continue
      this.#add(entry)
    }
  }

  #add(entry: ServerEntry): void {
    const connection = new ServerConnection(entry, {
      cwd: this.#options.cwd,
      limits: this.#options.limits,
      env: this.#options.env,
      marker: this.#options.marker,
      roots: () => this.#roots(),
      onChange: () => this.#changed(connection),
      version: this.#options.version,
    })
    this.#connections.set(entry.name, connection)
    void connection.start()
  }

  /** Resolves once every started server is connected or failed. */
  async ready(): Promise<void> {
    await Promise.all([...this.#connections.values()].map((connection) => connection.start()))
  }

  #changed(connection: ServerConnection): void {
    if (this.#closed) return
    const state = connection.state
    if (state.kind === 'failed') {
      const key = `failed:${connection.entry.name}:${state.reason}`
      if (!this.#warned.has(key)) {
        this.#warned.add(key)
        this.#options.log(`warning: MCP server "${connection.entry.name}" failed: ${state.reason}; its tools are not available (dsh mcp get ${connection.entry.name} shows its stderr)`)
      }
    }
    this.#sync()
    for (const listener of this.#listeners) listener()
  }

  /** Calls `listener` after a server's state, tools or prompts changed; returns its disposer. Listeners must not throw. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** The connected servers' prompts as slash commands (`mcp__<server>__<prompt>`), sorted. */
  prompts(): readonly PromptCommand[] {
    return promptCommands(this.#connections.values())
  }

  /** Expands a typed `/<name> words` of {@link prompts} through `prompts/get`. */
  expandPrompt(name: string, words: string): Promise<PromptExpansion> {
    return expandPromptCommand(this.#connections.values(), name, words)
  }

  /** Expands a typed line `/mcp__<server>__<prompt> words` (`unknown` when it names none of the prompts). */
  expandTyped(text: string): Promise<PromptExpansion> {
    return expandTypedPrompt(this.#connections.values(), text)
  }

  /** Re-registers the MCP tools when the offered set changed. */
  #sync(): void {
    const candidates: { server: string; tool: string; item: Tool; connection: ServerConnection; parameters: Record<string, unknown> }[] = []
    // A server that went away keeps its tools: the next call restarts it once.
    for (const connection of this.#connections.values()) {
      for (const item of connection.tools) {
        const checked = schemaProblem(connection.entry, item)
        if (checked.kind === 'filtered') continue
        if (checked.kind === 'rejected') {
          const key = `schema:${connection.entry.name}:${item.name}`
          if (!this.#warned.has(key)) {
            this.#warned.add(key)
            this.#options.log(`warning: MCP server "${connection.entry.name}": tool "${item.name}" is left out: ${checked.reason}`)
          }
          continue
        }
        candidates.push({ server: connection.entry.name, tool: item.name, item, connection, parameters: checked.parameters })
      }
    }
    const ours = new Set([...this.#offered.map((offered) => offered.modelName), TOOL_SCHEMA_TOOL])
    const taken = new Set(this.#options.registry.list().map((tool) => tool.name).filter((name) => !ours.has(name)))
    const named = assignToolNames(candidates, taken)
    const deferred = named.length > this.#options.limits.deferAboveTools
    const signature = JSON.stringify([deferred, named.map((entry) => [entry.modelName, entry.item.description, entry.parameters, entry.item.annotations?.readOnlyHint])])
    if (signature === this.#signature) return
    this.#signature = signature
    for (const dispose of this.#toolDisposers.splice(0)) dispose()
    this.#offered = named.map((entry) => ({ modelName: entry.modelName, server: entry.server, tool: entry.item, parameters: entry.parameters }))
    for (const entry of named) {
      this.#toolDisposers.push(this.#options.registry.register(adaptTool({ modelName: entry.modelName, tool: entry.item, connection: entry.connection, parameters: entry.parameters, deferred, maxOutputChars: this.#options.limits.maxOutputChars })))
    }
    if (deferred) {
      const lookup = (name: string): { description: string; parameters: Record<string, unknown> } | undefined => {
        const found = this.#offered.find((offered) => offered.modelName === name)
        return found === undefined ? undefined : { description: found.tool.description ?? oneLine(found.tool.title), parameters: found.parameters }
      }
      this.#toolDisposers.push(this.#options.registry.register(createToolSchemaTool(lookup, () => this.#offered.map((offered) => offered.modelName))))
    }
  }

  /** Every configured server with its state (blocked ones included), sorted by name. */
  status(): readonly ServerStatus[] {
    const sorted = this.#options.entries.toSorted((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    return sorted.map((entry) => {
      const connection = this.#connections.get(entry.name)
      const state: ServerState = entry.blocked === 'untrusted' ? { kind: 'untrusted' } : entry.blocked === 'disabled' ? { kind: 'disabled' } : (connection?.state ?? { kind: 'starting' })
      const tools = this.#offered.filter((offered) => offered.server === entry.name).map((offered) => ({ modelName: offered.modelName, tool: offered.tool.name }))
      return { entry, state, tools, stderr: connection?.stderr.lines() ?? [] }
    })
  }

  /** Replaces where the roots come from, and tells the servers. */
  setRoots(roots: () => readonly McpRoot[]): void {
    this.#roots = roots
    this.rootsChanged()
  }

  /** Sends `notifications/roots/list_changed` to every connected server. */
  rootsChanged(): void {
    for (const connection of this.#connections.values()) connection.rootsChanged()
  }

  /** Removes the tools and ends every server. */
  async close(): Promise<void> {
    this.#closed = true
    for (const dispose of [...this.#toolDisposers.splice(0), ...this.#disposers.splice(0)]) dispose()
    await Promise.all([...this.#connections.values()].map((connection) => connection.close()))
  }

  /** SIGKILLs every stdio server's group now (dsh is exiting). */
  killNow(): void {
    for (const connection of this.#connections.values()) connection.killNow()
  }
}
