/**
 * Registry of tools offered to the model, and their JSON-schema form for requests.
 */
import { z } from 'zod'
import type { ToolDefinition, ToolRegistryService, WireTool } from '@dsh/contracts'
import { DshError } from './errors.ts'

/** In-memory tool registry. */
export class ToolRegistry implements ToolRegistryService {
  readonly #tools = new Map<string, ToolDefinition>()

  register(tool: ToolDefinition): () => void {
    if (this.#tools.has(tool.name)) throw new DshError('TOOL_DUPLICATE', `tool "${tool.name}" is already registered`)
    this.#tools.set(tool.name, tool)
    return () => {
      if (this.#tools.get(tool.name) === tool) this.#tools.delete(tool.name)
    }
  }

  get(name: string): ToolDefinition | undefined {
    return this.#tools.get(name)
  }

  list(): readonly ToolDefinition[] {
    return [...this.#tools.values()]
  }
}

/** The wire form of a tool: name, description and JSON-schema parameters. */
export function wireTool(tool: ToolDefinition): WireTool {
  const { $schema: _ignored, ...parameters } = z.toJSONSchema(tool.parameters) as Record<string, unknown>
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters } }
}
