/**
 * The MCP servers of a composition: collected from every source (packages/mcp server-sources.ts),
 * each problem as one `warning:` line, a project `.mcp.json` that is not trusted named in one
 * line with the command that trusts it, and the rest started in the background on the host, whose
 * disposal ends them. Their roots follow the top-level session (mcp-roots.ts). Returns nothing when no server is configured, so a composition without MCP
 * is unchanged.
 */
import { TOOL_CALL_VARIABLE, type ToolProcesses } from '@dsh/tools'
import type { Host } from '@dsh/runtime'
import { collectServers, McpHub, mcpLimits, type ServerEntry } from '@dsh/mcp'
import type { ConfigFile } from './config-file.ts'
import { followSessionRoots, rootsOf } from './mcp-roots.ts'
import { version } from './version.ts'

/** Inputs of {@link startMcpServers}. */
export interface McpSetupOptions {
  readonly dshHome: string
  readonly cwd: string
  readonly config: ConfigFile
  /** The config file's path (named in error lines about its `mcp.servers`). */
  readonly configPath?: string | undefined
  /** `--mcp-config` files (absolute). */
  readonly mcpConfigFiles?: readonly string[] | undefined
  /** Servers an editor sent for this session only (ACP `session/new`). */
  readonly extraEntries?: readonly ServerEntry[]
  readonly env: Readonly<Record<string, string | undefined>>
  readonly processes: ToolProcesses
  readonly log: (line: string) => void
}

/** Collects, reports and starts the servers; `undefined` when none is configured. */
export function startMcpServers(host: Host, options: McpSetupOptions): McpHub | undefined {
  const servers = options.config.mcp?.servers
  const collected = collectServers({
    dshHome: options.dshHome,
    cwd: options.cwd,
    env: options.env,
    ...(options.mcpConfigFiles === undefined ? {} : { mcpConfigFiles: options.mcpConfigFiles }),
    ...(servers === undefined ? {} : { configServers: { file: options.configPath ?? 'config', servers } }),
  })
  for (const problem of collected.problems) options.log(`warning: ${problem}`)
  const untrusted = collected.entries.filter((entry) => entry.blocked === 'untrusted')
  if (untrusted.length > 0 && collected.mcpJson !== undefined) {
    options.log(`warning: ${collected.mcpJson.file} defines MCP server${untrusted.length > 1 ? 's' : ''} ${untrusted.map((entry) => entry.name).join(', ')}, not started until you trust the file: dsh mcp trust`)
  }
  const entries = [...(options.extraEntries ?? []), ...collected.entries.filter((entry) => !(options.extraEntries ?? []).some((extra) => extra.name === entry.name))]
  if (entries.length === 0) return undefined
  const hub = new McpHub({
    entries,
    limits: mcpLimits(options.config.mcp),
    registry: host.tools,
    cwd: options.cwd,
    env: options.env,
    marker: () => ({ name: TOOL_CALL_VARIABLE, value: options.processes.nextMarker() }),
    log: options.log,
    version,
  })
  host.ctx.effect(() => () => hub.close())
  // Subagents work in their parent's roots; the top-level session that stepped last is followed.
  host.ctx.effect(() => followSessionRoots(host, hub, { serves: (session) => session.header.parentSession === undefined, initial: rootsOf([options.cwd]) }))
  hub.start()
  return hub
}
