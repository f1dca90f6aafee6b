/**
 * Registry of tools offered to the model, and their wire form for requests. A tool's zod schema is
 * converted to JSON schema once per definition (`z.toJSONSchema` costs about a millisecond per tool,
 * and a turn sends the tools with every request); the list of wire tools is kept until the next
 * registration or removal, so every request of a step shares one frozen array. A registry may
 * be layered over a base one (the host's): it offers the base's tools first, then its own (one
 * session's MCP servers), and a name may be registered on only one of the two.
 */
import { z } from 'zod'
import type { ToolDefinition, ToolRegistryService, WireTool } from '@dsh/contracts'
import { DshError } from './errors.ts'

/** In-memory tool registry. */
export class ToolRegistry implements ToolRegistryService {
  readonly #tools = new Map<string, ToolDefinition>()
  readonly #wire = new WeakMap<ToolDefinition, WireTool>()
  #wireList: readonly WireTool[] | undefined
  /** The base's wire list the cached `#wireList` was built on. */
  #baseWire: readonly WireTool[] | undefined
  readonly #pending = new Set<(name: string) => Promise<void> | undefined>()
  readonly #base: ToolRegistry | undefined

  /** `base`: a registry whose tools this one offers before its own. */
  constructor(options: { readonly base?: ToolRegistry } = {}) {
    this.#base = options.base
  }

  register(tool: ToolDefinition): () => void {
    if (this.#tools.has(tool.name) || this.#base?.get(tool.name) !== undefined) throw new DshError('TOOL_DUPLICATE', `tool "${tool.name}" is already registered`)
    this.#tools.set(tool.name, tool)
    this.#wireList = undefined
    return () => {
      if (this.#tools.get(tool.name) !== tool) return
      this.#tools.delete(tool.name)
      this.#wireList = undefined
    }
  }

  /**
   * Adds a source of tools that are still on their way (an MCP server that is starting): for a
   * name it may provide, `source` returns a promise settled once it knows (it must not reject);
   * otherwise `undefined`. Returns its disposer.
   */
  addPendingSource(source: (name: string) => Promise<void> | undefined): () => void {
    this.#pending.add(source)
    return () => this.#pending.delete(source)
  }

  /** Waits until no pending source may still provide `name` (at once when it is registered or none claims it). */
  async settle(name: string): Promise<void> {
    if (this.#tools.has(name)) return
    const waits = [...this.#pending].flatMap((source) => source(name) ?? [])
    await Promise.all([...waits, this.#base?.settle(name)])
  }

  get(name: string): ToolDefinition | undefined {
    return this.#tools.get(name) ?? this.#base?.get(name)
  }

  list(): readonly ToolDefinition[] {
    return [...(this.#base?.list() ?? []), ...this.#tools.values()]
  }

  /** The registered tools in wire form, the base's first, in registration order (the same frozen array until the set changes). */
  wireTools(): readonly WireTool[] {
    const baseWire = this.#base?.wireTools()
    if (this.#wireList !== undefined && baseWire === this.#baseWire) return this.#wireList
    this.#baseWire = baseWire
    const list: WireTool[] = [...(baseWire ?? [])]
    for (const tool of this.#tools.values()) {
      let wire = this.#wire.get(tool)
      if (wire === undefined) {
        wire = wireTool(tool)
        this.#wire.set(tool, wire)
      }
      list.push(wire)
    }
    this.#wireList = Object.freeze(list)
    return this.#wireList
  }
}

/** The wire form of a tool: name, description and its parameters as JSON schema without the `$schema` dialect marker. */
export function wireTool(tool: ToolDefinition): WireTool {
  if (tool.wireParameters !== undefined) return { type: 'function', function: { name: tool.name, description: tool.description, parameters: { ...tool.wireParameters } } }
  const { $schema: _dialect, ...parameters } = z.toJSONSchema(tool.parameters) as Record<string, unknown>
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters } }
}
