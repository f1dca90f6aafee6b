/**
 * `dsh mcp add|list|get|remove|enable|disable|trust`: the MCP servers of the working directory's
 * project. `add` stores a server in `$DSH_HOME/mcp-servers.json` (project scope, keyed by the
 * project root, by default; `--scope user` for every project); `list` connects to each startable
 * server (startup timeout applies) and prints one line per server: name, transport, source, state;
 * `get` prints a server's tools as the model sees them and its last stderr lines; `trust` records
 * the digest of the project's `.mcp.json`. Bad input is one line and nothing is written.
 */
import type { Command } from 'commander'
import { CliError, usageError } from '../cli-error.ts'
import type { CliIo } from '../cli-io.ts'

/** Options of the `dsh mcp` commands. */
interface McpOptions {
  readonly dshHome?: string
  readonly cwd?: string
  readonly config?: string
  readonly mcpConfig?: readonly string[]
  readonly env?: readonly string[]
  readonly header?: readonly string[]
  readonly url?: string
  readonly scope?: string
  readonly transport?: string
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value]

type Mcp = typeof import('@dsh/mcp')

async function context(io: CliIo, options: McpOptions): Promise<{ mcp: Mcp; dshHome: string; cwd: string; root: string }> {
  const [mcp, { cwdFrom, dshHomeFrom }] = await Promise.all([import('@dsh/mcp'), import('../global-options.ts')])
  const cwd = cwdFrom(io, options.cwd)
  return { mcp, dshHome: dshHomeFrom(io, options.dshHome), cwd, root: mcp.projectRootOf(cwd) }
}

function storeOrFail(mcp: Mcp, dshHome: string): import('@dsh/mcp').StoreContent {
  const store = mcp.readStore(dshHome)
  if (!store.ok) throw new CliError(store.problem, 1)
  return store.content
}

function keyValues(items: readonly string[], separator: string, what: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const item of items) {
    const at = item.indexOf(separator)
    const key = at <= 0 ? '' : item.slice(0, at).trim()
    if (key === '') throw usageError(`mcp add: ${what} ${JSON.stringify(item)} is not ${separator === '=' ? 'KEY=VALUE' : "'Name: value'"}`)
    out[key] = item.slice(at + separator.length).trim()
  }
  return out
}

async function add(io: CliIo, name: string, words: readonly string[], options: McpOptions): Promise<number> {
  const { mcp, dshHome, root } = await context(io, options)
  const scope = options.scope ?? 'project'
  if (scope !== 'project' && scope !== 'user') throw usageError(`mcp add: --scope ${JSON.stringify(scope)}: use project or user`)
  if (options.url !== undefined && words.length > 0) throw usageError('mcp add: give either --url URL or -- COMMAND [ARGS…], not both')
  if (options.url === undefined && words.length === 0) throw usageError('mcp add: missing the server: dsh mcp add NAME -- COMMAND [ARGS…] or dsh mcp add NAME --url URL')
  const raw =
    options.url === undefined
      ? { command: words[0], args: words.slice(1), ...(options.env === undefined ? {} : { env: keyValues(options.env, '=', '--env') }) }
      : { type: 'http', url: options.url, ...(options.header === undefined ? {} : { headers: keyValues(options.header, ':', '--header') }) }
  const checked = mcp.readServerEntry(name, raw, { where: 'mcp add' })
  if (!checked.ok) throw usageError(checked.problem)
  const content = storeOrFail(mcp, dshHome)
  const project = mcp.projectRecord(content, root)
  if (name in content.user || name in project.servers) throw usageError(`mcp add: server ${JSON.stringify(name)}: duplicate name (already stored for ${name in project.servers ? `project ${root}` : 'the user'}); dsh mcp remove ${name} first`)
  const next = scope === 'user' ? { ...content, user: { ...content.user, [name]: raw } } : mcp.withProject(content, root, { ...project, servers: { ...project.servers, [name]: raw } })
  mcp.writeStore(dshHome, next)
  io.stdout.write(`added MCP server ${name} (${checked.config.transport}, ${scope === 'user' ? 'user: every project' : `project ${root}`})\n`)
  return 0
}

async function remove(io: CliIo, name: string, options: McpOptions): Promise<number> {
  const { mcp, dshHome, root } = await context(io, options)
  const content = storeOrFail(mcp, dshHome)
  const project = mcp.projectRecord(content, root)
  if (name in project.servers) {
    const { [name]: _gone, ...servers } = project.servers
    mcp.writeStore(dshHome, mcp.withProject(content, root, { ...project, servers }))
  } else if (name in content.user) {
    const { [name]: _gone, ...user } = content.user
    mcp.writeStore(dshHome, { ...content, user })
  } else throw usageError(`mcp remove: no stored server named ${JSON.stringify(name)} (dsh mcp list shows the servers; .mcp.json and --mcp-config servers are edited in their files)`)
  io.stdout.write(`removed MCP server ${name}\n`)
  return 0
}

async function toggle(io: CliIo, name: string, enable: boolean, options: McpOptions): Promise<number> {
  const { mcp, dshHome, root } = await context(io, options)
  const content = storeOrFail(mcp, dshHome)
  const project = mcp.projectRecord(content, root)
  const disabled = enable ? project.disabled.filter((item) => item !== name) : [...new Set([...project.disabled, name])]
  mcp.writeStore(dshHome, mcp.withProject(content, root, { ...project, disabled }))
  io.stdout.write(`${enable ? 'enabled' : 'disabled'} MCP server ${name} for project ${root}\n`)
  return 0
}

async function trust(io: CliIo, options: McpOptions): Promise<number> {
  const { mcp, dshHome, cwd, root } = await context(io, options)
  const collected = mcp.collectServers({ dshHome, cwd, env: io.env })
  if (collected.mcpJson === undefined) throw usageError(`mcp trust: there is no .mcp.json at the project root ${root}`)
  const content = storeOrFail(mcp, dshHome)
  mcp.writeStore(dshHome, mcp.withProject(content, root, { ...mcp.projectRecord(content, root), trustedMcpJson: collected.mcpJson.digest }))
  const names = collected.entries.filter((entry) => entry.source === '.mcp.json').map((entry) => entry.name)
  io.stdout.write(`trusted ${collected.mcpJson.file} (sha256 ${collected.mcpJson.digest.slice(0, 12)}…): ${names.length === 0 ? 'no servers' : names.join(', ')}; a changed file is untrusted again\n`)
  return 0
}

const common = (command: Command): Command => command.option('--cwd <dir>', 'working directory whose project is meant (default: the current directory)')

/** Adds the `mcp` command group to `program`. */
export function registerMcpCommands(program: Command, io: CliIo, setExit: (code: number) => void): void {
  const group = program.command('mcp').description('MCP servers of the working directory\'s project (stored in $DSH_HOME, .mcp.json, --mcp-config)')
  const inspecting = (command: Command): Command => common(command).option('--config <file>', 'YAML config file (its mcp section applies)').option('--mcp-config <file>', 'also these .mcp.json-shaped files (repeatable)', collect)
  inspecting(group.command('list', { isDefault: true }).description('one line per server: name, transport, source, state (connects to each)')).action(async (_options: unknown, command: Command) => {
    const { listServers } = await import('./mcp-inspect.ts')
    setExit(await listServers(io, command.optsWithGlobals<McpOptions>()))
  })
  inspecting(group.command('get').description('a server\'s tools as the model sees them, and its last stderr lines').argument('<name>', 'the server')).action(async (name: string, _options: unknown, command: Command) => {
    const { getServer } = await import('./mcp-inspect.ts')
    setExit(await getServer(io, name, command.optsWithGlobals<McpOptions>()))
  })
  common(
    group
      .command('add')
      .description('store a server: dsh mcp add NAME [--env K=V]… [--scope project|user] -- COMMAND [ARGS…], or dsh mcp add NAME --url URL [--header \'K: V\']…')
      .argument('<name>', 'the server name (the <server> of mcp__<server>__<tool>)')
      .argument('[command...]', 'the command and its arguments (after --)'),
  )
    .option('--env <KEY=VALUE>', 'environment variable of a stdio server (repeatable)', collect)
    .option('--url <url>', 'an HTTP server (Streamable HTTP, falling back to SSE)')
    .option('--header <header>', "request header of an HTTP server, 'Name: value' (repeatable)", collect)
    .option('--scope <scope>', 'project (default: this project only) or user (every project)')
    .action(async (name: string, words: string[], _options: unknown, command: Command) => setExit(await add(io, name, words, command.optsWithGlobals<McpOptions>())))
  common(group.command('remove').description('forget a stored server').argument('<name>', 'the server')).action(async (name: string, _options: unknown, command: Command) => setExit(await remove(io, name, command.optsWithGlobals<McpOptions>())))
  common(group.command('enable').description('start the server again in this project').argument('<name>', 'the server')).action(async (name: string, _options: unknown, command: Command) => setExit(await toggle(io, name, true, command.optsWithGlobals<McpOptions>())))
  common(group.command('disable').description('do not start the server in this project').argument('<name>', 'the server')).action(async (name: string, _options: unknown, command: Command) => setExit(await toggle(io, name, false, command.optsWithGlobals<McpOptions>())))
  common(group.command('import').description("copy another agent's MCP servers into dsh's store: claude (~/.claude.json: its user scope and this project's local scope) or codex (~/.codex/config.toml)").argument('<from>', 'claude or codex'))
    .option('--dry-run', 'print what would be imported; write nothing')
    .action(async (from: string, _options: unknown, command: Command) => {
      const { importServers } = await import('./mcp-import.ts')
      setExit(await importServers(io, from, command.optsWithGlobals()))
    })
  common(group.command('trust').description('trust the project\'s .mcp.json as it is now (its digest is recorded; a changed file is untrusted again)')).action(async (_options: unknown, command: Command) => setExit(await trust(io, command.optsWithGlobals<McpOptions>())))
}
