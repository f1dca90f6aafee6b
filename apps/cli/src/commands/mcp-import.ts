/**
 * `dsh mcp import claude`: copies Claude Code's MCP servers into dsh's store — its user scope to
 * dsh's user scope, this project's local scope to dsh's project scope — from `~/.claude.json`
 * (`$CLAUDE_CONFIG_DIR/.claude.json` when that is set). A name dsh already stores is left as it
 * is and named; `--dry-run` prints what would be imported and writes nothing. The project's
 * `.mcp.json` needs no import: dsh reads it (once trusted, `dsh mcp trust`).
 */
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { errnoCode, errorMessage, userHome } from '@dsh/runtime'
import { CliError, usageError } from '../cli-error.ts'
import type { CliIo } from '../cli-io.ts'

/** Options of `dsh mcp import`. */
export interface McpImportOptions {
  readonly cwd?: string
  readonly dshHome?: string
  readonly dryRun?: boolean
}

/** Largest `~/.claude.json` read (it also keeps Claude Code's own state). */
const MAX_BYTES = 64 * 1024 * 1024

function claudeConfigFile(io: CliIo): string {
  const dir = io.env['CLAUDE_CONFIG_DIR']
  return join(dir !== undefined && dir !== '' ? dir : userHome(io.env['HOME']), '.claude.json')
}

function readConfig(file: string): string {
  try {
    // A FIFO or device in its place would block the read or never end: only a regular file is read.
    const stats = statSync(file)
    if (!stats.isFile()) throw new CliError(`${file}: not a regular file; not read`, 1)
    if (stats.size > MAX_BYTES) throw new CliError(`${file}: larger than ${MAX_BYTES / 1024 / 1024} MiB; not read`, 1)
    const text = readFileSync(file)
    if (text.length > MAX_BYTES) throw new CliError(`${file}: larger than ${MAX_BYTES / 1024 / 1024} MiB; not read`, 1)
    return text.toString('utf8')
  } catch (error) {
    if (error instanceof CliError) throw error
    // Missing is the common case of a machine without Claude Code: said plainly.
    if (errnoCode(error) === 'ENOENT') throw new CliError(`${file}: not found (Claude Code keeps its MCP servers there; set CLAUDE_CONFIG_DIR if yours is elsewhere)`, 1)
    throw new CliError(`${file}: cannot read (${errnoCode(error) ?? errorMessage(error)})`, 1)
  }
}

/** Runs the import from `from` (only `claude`); returns the exit code. */
export async function importServers(io: CliIo, from: string, options: McpImportOptions): Promise<number> {
  if (from !== 'claude') throw usageError(`mcp import: unknown source ${JSON.stringify(from)} (dsh imports from claude: Claude Code's ~/.claude.json)`)
  const [mcp, { cwdFrom, dshHomeFrom }] = await Promise.all([import('@dsh/mcp'), import('../global-options.ts')])
  const cwd = cwdFrom(io, options.cwd)
  const dshHome = dshHomeFrom(io, options.dshHome)
  const root = mcp.projectRootOf(cwd)
  const file = claudeConfigFile(io)
  let found: import('@dsh/mcp').ClaudeServers
  try {
    found = mcp.claudeServers(readConfig(file), file, [root, cwd])
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
