/**
 * `dsh mcp import claude|codex`: copies another agent's MCP servers into dsh's store. From Claude
 * Code's `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json` when that is set): its user scope to
 * dsh's user scope, this project's local scope to dsh's project scope. From Codex's
 * `~/.codex/config.toml` (`$CODEX_HOME/config.toml`): its `[mcp_servers]` to dsh's user scope. A
 * name dsh already stores is left as it is and named; `--dry-run` prints what would be imported
 * and writes nothing. The project's `.mcp.json` needs no import: dsh reads it (once trusted,
 * `dsh mcp trust`).
 */
import { join } from 'node:path'
import { errorMessage, readSmallFile, userHome } from '@dsh/runtime'
import { CliError, usageError } from '../cli-error.ts'
import type { CliIo } from '../cli-io.ts'

/** Options of `dsh mcp import`. */
export interface McpImportOptions {
  readonly cwd?: string
  readonly dshHome?: string
  readonly dryRun?: boolean
}

/** Largest file read (`~/.claude.json` also keeps Claude Code's own state). */
const MAX_BYTES = 64 * 1024 * 1024

/** Where each source keeps its servers, and what to say when the file is not there. */
function sourceFile(io: CliIo, from: 'claude' | 'codex'): { readonly file: string; readonly missing: string } {
  const set = (name: string): string | undefined => (io.env[name] === undefined || io.env[name] === '' ? undefined : io.env[name])
  if (from === 'claude') return { file: join(set('CLAUDE_CONFIG_DIR') ?? userHome(io.env['HOME']), '.claude.json'), missing: 'Claude Code keeps its MCP servers there; set CLAUDE_CONFIG_DIR if yours is elsewhere' }
  return { file: join(set('CODEX_HOME') ?? join(userHome(io.env['HOME']), '.codex'), 'config.toml'), missing: 'Codex keeps its MCP servers there; set CODEX_HOME if yours is elsewhere' }
}

function readConfig(file: string, missing: string): string {
  // Looked at first and opened without blocking: a FIFO or a device in its place is said, never read.
  const read = readSmallFile(file, { maxBytes: MAX_BYTES })
  switch (read.kind) {
    case 'file':
      return read.bytes.toString('utf8')
    case 'absent':
      // The common case of a machine without that agent: said plainly.
      throw new CliError(`${file}: not found (${missing})`, 1)
    case 'too-large':
      throw new CliError(`${file}: larger than ${MAX_BYTES / 1024 / 1024} MiB; not read`, 1)
    case 'not-file':
    case 'changed':
      throw new CliError(`${file}: not a regular file; not read`, 1)
    case 'unreadable':
      throw new CliError(`${file}: cannot read (${read.reason})`, 1)
    default: {
      const unknown: never = read
      return unknown
    }
  }
}

/** Runs the import from `from` (`claude` or `codex`); returns the exit code. */
export async function importServers(io: CliIo, from: string, options: McpImportOptions): Promise<number> {
  if (from !== 'claude' && from !== 'codex') throw usageError(`mcp import: unknown source ${JSON.stringify(from)} (dsh imports from claude: Claude Code's ~/.claude.json, or codex: ~/.codex/config.toml)`)
  const [mcp, { cwdFrom, dshHomeFrom }] = await Promise.all([import('@dsh/mcp'), import('../global-options.ts')])
  const cwd = cwdFrom(io, options.cwd)
  const dshHome = dshHomeFrom(io, options.dshHome)
  const root = mcp.projectRootOf(cwd)
  const { file, missing } = sourceFile(io, from)
  let found: import('@dsh/mcp').ImportedServers
  try {
    const text = readConfig(file, missing)
    found = from === 'claude' ? mcp.claudeServers(text, file, [root, cwd]) : mcp.codexServers(text, file)
  } catch (error) {
    if (error instanceof CliError) throw error
    throw new CliError(errorMessage(error), 1)
  }
  const store = mcp.readStore(dshHome)
  if (!store.ok) throw new CliError(store.problem, 1)
  let content = store.content
  const lines: string[] = [...found.problems.map((line) => `warning: ${line}; not imported`), ...found.notes.map((line) => `note: ${line}`)]
  let imported = 0
  const add = (scope: 'user' | 'project', name: string, entry: Record<string, unknown>): void => {
    const project = mcp.projectRecord(content, root)
    if (name in content.user || name in project.servers) {
      lines.push(`skipped ${name}: dsh already stores a server of that name (dsh mcp remove ${name} first to import it)`)
      return
    }
    content = scope === 'user' ? { ...content, user: { ...content.user, [name]: entry } } : mcp.withProject(content, root, { ...project, servers: { ...project.servers, [name]: entry } })
    imported++
    const shown = typeof entry['url'] === 'string' ? entry['url'] : [entry['command'], ...(Array.isArray(entry['args']) ? entry['args'] : [])].join(' ')
    lines.push(`${options.dryRun === true ? 'would import' : 'imported'} ${name} (${scope === 'user' ? 'user: every project' : `project ${root}`}): ${shown}`)
  }
  for (const [name, entry] of Object.entries(found.project)) add('project', name, entry)
  for (const [name, entry] of Object.entries(found.user)) add('user', name, entry)
  if (imported > 0 && options.dryRun !== true) mcp.writeStore(dshHome, content)
  for (const line of lines) io.stdout.write(`${line}\n`)
  io.stdout.write(imported === 0 ? `nothing to import from ${file}\n` : `${options.dryRun === true ? 'would import' : 'imported'} ${imported} server${imported === 1 ? '' : 's'} from ${file}${options.dryRun === true ? '' : '; dsh mcp list connects to them'}\n`)
  return 0
}
