// Paths of the MCP servers the end-to-end tests start: the real ones from npm and the fault server.
import { fileURLToPath } from 'node:url'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)

/** Absolute path of an installed server's entry script. */
export function serverScript(pkg: 'server-everything' | 'server-filesystem' | 'server-memory'): string {
  return join(dirname(require.resolve(`@modelcontextprotocol/${pkg}/package.json`)), 'dist', 'index.js')
}

/** The fault server of packages/mcp's tests. */
export const faultServer = fileURLToPath(new URL('../../../packages/mcp/test/fault-server.mjs', import.meta.url))

/** A `.mcp.json`-shaped text with `node SCRIPT ARGS` servers. */
export function mcpJson(servers: Record<string, { readonly script: string; readonly args?: readonly string[]; readonly env?: Record<string, string> }>): string {
  return JSON.stringify({ mcpServers: Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, { command: process.execPath, args: [server.script, ...(server.args ?? [])], ...(server.env === undefined ? {} : { env: server.env }) }])) })
}
