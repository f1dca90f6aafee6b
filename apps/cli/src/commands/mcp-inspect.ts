/**
 * `dsh mcp list` and `dsh mcp get NAME`: collect the servers as a run would (every source, the
 * same one-line problems on stderr), connect to the startable ones on a hub of their own, and
 * print their states, or one server's tools as the model sees them and its last stderr lines
 * (`dsh context` reuses the inspection for the bytes the tools cost). The servers are ended
 * before the command returns.
 */
import { ToolRegistry } from '@dsh/runtime'
import { collectServers, describeState, McpHub, mcpLimits, mcpToolBytes, projectRootOf, type ServerStatus, type ToolBytes } from '@dsh/mcp'
import { TOOL_CALL_VARIABLE, ToolProcesses } from '@dsh/tools'
import { resolve } from 'node:path'
import { configFrom } from '../agent-setup.ts'
import { usageError } from '../cli-error.ts'
import { errLine, type CliIo } from '../cli-io.ts'
import { cwdFrom, dshHomeFrom } from '../global-options.ts'
import { version } from '../version.ts'

/** Where and what to inspect. */
export interface InspectOptions {
  readonly dshHome?: string
  readonly cwd?: string
  readonly config?: string
  readonly mcpConfig?: readonly string[]
}

/** Every server's status and the bytes their tools add to a request. */
export interface Inspection {
  readonly statuses: readonly ServerStatus[]
  readonly bytes: ToolBytes
}

/** Connects to the servers (or the one named `only`) and reports them. */
export async function inspectServers(io: CliIo, options: InspectOptions, only?: string): Promise<Inspection> {
  const dshHome = dshHomeFrom(io, options.dshHome)
  const cwd = cwdFrom(io, options.cwd)
  const config = configFrom(io, options.config)
  const servers = config.mcp?.servers
  const collected = collectServers({
    dshHome,
    cwd,
    env: io.env,
    mcpConfigFiles: (options.mcpConfig ?? []).map((file) => resolve(io.cwd, file)),
    ...(servers === undefined ? {} : { configServers: { file: resolve(io.cwd, options.config ?? 'config'), servers } }),
  })
  for (const problem of collected.problems) errLine(io, `warning: ${problem}`)
  const entries = only === undefined ? collected.entries : collected.entries.filter((entry) => entry.name === only)
  if (only !== undefined && entries.length === 0) throw usageError(`mcp get: no server named ${JSON.stringify(only)} in project ${projectRootOf(cwd)} (dsh mcp list shows them)`)
  const processes = new ToolProcesses()
  // Failures are shown in the listing itself; warnings would say it twice.
  const registry = new ToolRegistry()
  const hub = new McpHub({ entries, limits: mcpLimits(config.mcp), registry, cwd, env: io.env, marker: () => ({ name: TOOL_CALL_VARIABLE, value: processes.nextMarker() }), log: () => undefined, version })
  const onExit = (): void => processes.killAllNow()
  process.on('exit', onExit)
  try {
    hub.start()
    await hub.ready()
    return { statuses: hub.status(), bytes: mcpToolBytes(registry) }
  } finally {
    await hub.close()
    await processes.endAll()
    process.removeListener('exit', onExit)
  }
}

function transportOf(status: ServerStatus): string {
  return status.entry.config.transport === 'stdio' ? 'stdio' : `http ${status.entry.config.url}`
}

/** `dsh mcp list`. */
export async function listServers(io: CliIo, options: InspectOptions): Promise<number> {
  const { statuses } = await inspectServers(io, options)
  if (statuses.length === 0) {
    io.stdout.write('no MCP servers (add one: dsh mcp add NAME -- COMMAND [ARGS…])\n')
    return 0
  }
  for (const status of statuses) io.stdout.write(`${status.entry.name}  ${transportOf(status)}  ${status.entry.source}  ${describeState(status.state)}\n`)
  if (statuses.some((status) => status.state.kind === 'untrusted')) io.stdout.write('untrusted servers come from the project\'s .mcp.json: review it, then run dsh mcp trust\n')
  return 0
}

/** `dsh mcp get NAME`. */
export async function getServer(io: CliIo, name: string, options: InspectOptions): Promise<number> {
  const [status] = (await inspectServers(io, options, name)).statuses
  if (status === undefined) return 1
  const lines = [`${status.entry.name}  ${transportOf(status)}  ${status.entry.source}${status.entry.file === undefined ? '' : ` (${status.entry.file})`}`, `state: ${describeState(status.state)}`]
  if (status.entry.config.transport === 'stdio') lines.push(`command: ${[status.entry.config.command, ...status.entry.config.args].join(' ')}`)
  lines.push(status.tools.length === 0 ? 'tools: none' : 'tools (as the model sees them):', ...status.tools.map((tool) => `  ${tool.modelName}${tool.modelName.endsWith(tool.tool) ? '' : `  (${tool.tool})`}`))
  lines.push(status.stderr.length === 0 ? 'stderr: (nothing)' : 'stderr (last lines):', ...status.stderr.map((line) => `  ${line}`))
  io.stdout.write(`${lines.join('\n')}\n`)
  return 0
}
