/**
 * The MCP servers of a composition as the chat's `/mcp` and the web page's Context tab list them:
 * name, transport, source and state (`connected, 3 tools`, `failed: …`, `untrusted`, `disabled`),
 * with the prefix their tools' model names share (what turning a server off for a session hides).
 */
import { describeState, serverPrefix, type McpHub } from '@dsh/mcp'
import type { McpServerRow } from '@dsh/tui'

/** The rows of every configured server, sorted by name (none without a hub). */
export function mcpRows(hub: McpHub | undefined): McpServerRow[] {
  return (hub?.status() ?? []).map((status) => ({
    name: status.entry.name,
    transport: status.entry.config.transport === 'stdio' ? 'stdio' : `http ${status.entry.config.url}`,
    source: status.entry.source,
    state: describeState(status.state),
    toolPrefix: `${serverPrefix(status.entry.name)}__`,
  }))
}
