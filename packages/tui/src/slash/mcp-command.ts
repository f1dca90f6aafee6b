/**
 * `/mcp`: the MCP servers with their states (`connected, 3 tools`, `failed: …`, `untrusted`,
 * `disabled`), and `/mcp disable NAME` / `/mcp enable NAME` to turn one server's tools off or on
 * for the current session only: they leave (or join) its requests from the next step, and a call
 * of a turned-off tool is refused with the way back. Nothing is stored: another session, or this
 * one resumed later, has every server.
 */
import type { ChatController } from '../chat-controller.ts'
import type { McpServerRow } from '../chat-environment.ts'
import { oneLine } from '../text-safety.ts'
import type { SlashCommandSpec } from './slash-registry.ts'

const none = 'no MCP servers configured (dsh mcp add NAME -- COMMAND, or --mcp-config FILE)'
const usage = 'usage: /mcp [disable NAME | enable NAME]'

function rows(servers: readonly McpServerRow[], controller: ChatController): string[] {
  const width = Math.max(...servers.map((server) => server.name.length))
  const visibility = controller.agent.toolVisibility
  return [
    'MCP servers:',
    ...servers.map((server) => {
      const off = visibility.isHidden(server.toolPrefix) ? ' · off for this session (/mcp enable ' + server.name + ')' : ''
      return `  ${server.name.padEnd(width)}  ${server.transport}  ${server.source}  ${server.state}${off}`
    }),
  ]
}

function toggle(controller: ChatController, servers: readonly McpServerRow[], verb: 'disable' | 'enable', name: string): string {
  const server = servers.find((candidate) => candidate.name === name)
  if (server === undefined) return `no MCP server named ${oneLine(name, 40)} (/mcp lists them)`
  const visibility = controller.agent.toolVisibility
  if (verb === 'disable') {
    return visibility.hide({ prefix: server.toolPrefix, enable: `/mcp enable ${server.name}` })
      ? `${server.name} is off for this session: its tools leave the requests from the next step`
      : `${server.name} is already off for this session`
  }
  return visibility.show(server.toolPrefix) ? `${server.name} is on again for this session: its tools join the requests from the next step` : `${server.name} is not off for this session`
}

export const mcpCommand: SlashCommandSpec = {
  name: 'mcp',
  usage: '/mcp [disable NAME]',
  help: 'MCP servers and their states; disable NAME / enable NAME turns one off or on for this session',
  run: ({ controller }, args) => {
    const mcp = controller.env.mcp
    const servers = mcp?.servers() ?? []
    const [verb, name, ...rest] = args
    if (verb === undefined) return servers.length === 0 ? none : rows(servers, controller)
    if ((verb !== 'disable' && verb !== 'enable') || name === undefined || rest.length > 0) return usage
    if (servers.length === 0) return none
    return toggle(controller, servers, verb, name)
  },
}
