/**
 * The MCP part of `dsh context`: the configured servers, connected as a run would connect them,
 * each with its state and the bytes its tools add to every model request (their JSON as sent),
 * the shared `mcp_tool_schema` tool when schemas are deferred, and the total. Nothing when no
 * server is configured.
 */
import { describeState } from '@dsh/mcp'
import type { CliIo } from '../cli-io.ts'
import { inspectServers, type InspectOptions } from './mcp-inspect.ts'

/** Text and JSON of the servers; `undefined` when none is configured. */
export async function mcpContextReport(io: CliIo, options: InspectOptions): Promise<{ text: string; json: Record<string, unknown> } | undefined> {
  const { statuses, bytes } = await inspectServers(io, options)
  if (statuses.length === 0) return undefined
  const rows = statuses.map((status) => ({ name: status.entry.name, source: status.entry.source, state: describeState(status.state), tools: bytes.servers.get(status.entry.name)?.tools ?? 0, bytes: bytes.servers.get(status.entry.name)?.bytes ?? 0 }))
  const lines = ['MCP servers (bytes their tools add to every model request):']
  for (const [index, row] of rows.entries()) {
    const state = statuses[index]?.state
    // A count the state does not already say (tools left out by filters or schema checks).
    const offered = state?.kind === 'connected' && state.tools !== row.tools ? ` (${row.tools} offered)` : ''
    lines.push(`  ${row.name}  ${row.source}  ${row.state}  ${row.bytes} bytes${offered}`)
  }
  if (bytes.schemaTool > 0) lines.push(`  mcp_tool_schema  ${bytes.schemaTool} bytes (schemas deferred: more MCP tools than mcp.deferAboveTools)`)
  lines.push(`  total  ${bytes.total} bytes`)
  return { text: `${lines.join('\n')}\n`, json: { mcpServers: rows, mcpToolSchemaBytes: bytes.schemaTool, mcpToolBytes: bytes.total } }
}
