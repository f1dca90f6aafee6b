/**
 * What MCP tools cost every request: the bytes of each tool's wire form (`{"type":"function",
 * "function":{name, description, parameters}}` as JSON, UTF-8) summed per server, and the bytes of
 * the shared `mcp_tool_schema` tool when schemas are deferred.
 */
import type { ToolRegistryService } from '@dsh/contracts'
import { wireTool } from '@dsh/runtime'
import { TOOL_SCHEMA_TOOL } from './tool-schema-tool.ts'

/** Bytes per request of the MCP tools on a registry. */
export interface ToolBytes {
  /** Per server name: its tools and their bytes. */
  readonly servers: ReadonlyMap<string, { readonly tools: number; readonly bytes: number }>
  /** The `mcp_tool_schema` tool's bytes (0 when schemas are not deferred). */
  readonly schemaTool: number
  /** Everything MCP adds to a request. */
  readonly total: number
}

/** Measures the MCP tools registered on `registry`. */
export function mcpToolBytes(registry: ToolRegistryService): ToolBytes {
  const servers = new Map<string, { tools: number; bytes: number }>()
  let schemaTool = 0
  for (const tool of registry.list()) {
    const bytes = Buffer.byteLength(JSON.stringify(wireTool(tool)))
    if (tool.name === TOOL_SCHEMA_TOOL) schemaTool = bytes
    if (tool.origin === undefined) continue
    const entry = servers.get(tool.origin.server) ?? { tools: 0, bytes: 0 }
    servers.set(tool.origin.server, { tools: entry.tools + 1, bytes: entry.bytes + bytes })
  }
  const total = [...servers.values()].reduce((sum, entry) => sum + entry.bytes, schemaTool)
  return { servers, schemaTool, total }
}
