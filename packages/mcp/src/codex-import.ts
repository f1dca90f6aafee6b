/**
 * Codex's MCP servers as entries of dsh's store (`dsh mcp import codex`): the `[mcp_servers.<name>]`
 * tables of `~/.codex/config.toml` (`$CODEX_HOME/config.toml`), Codex's user scope. stdio entries
 * keep `command`, `args`, `env` and `cwd`, and `env_vars` (variables Codex passes through) become
 * `env` entries `${VAR}`, expanded when the server starts; HTTP entries keep `url` and
 * `http_headers`, and `bearer_token_env_var` / `env_http_headers` become `${VAR}` headers.
 * `enabled_tools` / `disabled_tools` carry over. A server with `enabled = false` is not imported,
 * and any other key (`startup_timeout_sec`, …) is named in a note and dropped. An entry dsh cannot
 * use is a problem line; the others still come through. Pure: the caller reads the file.
 */
import { parse } from 'smol-toml'
import type { ImportedServers } from './claude-import.ts'
import { isServerName, readServerEntry } from './server-spec.ts'

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date)

/** Keys turned into dsh's entry (the rest are dropped with a note). */
const READ = new Set(['command', 'args', 'env', 'cwd', 'env_vars', 'url', 'http_headers', 'bearer_token_env_var', 'env_http_headers', 'enabled_tools', 'disabled_tools', 'enabled'])

const stringsOf = (value: unknown): string[] | undefined => (Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined)

/** dsh's entry for one Codex table, or the problem with it. */
function entryOf(raw: Record<string, unknown>): Record<string, unknown> | string {
  const out: Record<string, unknown> = {}
  if (raw['command'] !== undefined) out['command'] = raw['command']
  if (raw['args'] !== undefined) out['args'] = raw['args']
  if (raw['cwd'] !== undefined) out['cwd'] = raw['cwd']
  const env: Record<string, unknown> = isObject(raw['env']) ? { ...raw['env'] } : {}
  if (raw['env'] !== undefined && !isObject(raw['env'])) return '"env" must be a table of strings'
  if (raw['env_vars'] !== undefined) {
    const names = stringsOf(raw['env_vars'])
    if (names === undefined) return '"env_vars" must be a list of variable names'
    for (const name of names) env[name] ??= `\${${name}}`
  }
  if (Object.keys(env).length > 0) out['env'] = env
  if (raw['url'] !== undefined) {
    out['type'] = 'http'
    out['url'] = raw['url']
    const headers: Record<string, unknown> = isObject(raw['http_headers']) ? { ...raw['http_headers'] } : {}
    if (typeof raw['bearer_token_env_var'] === 'string') headers['Authorization'] = `Bearer \${${raw['bearer_token_env_var']}}`
    if (isObject(raw['env_http_headers'])) for (const [header, name] of Object.entries(raw['env_http_headers'])) if (typeof name === 'string') headers[header] = `\${${name}}`
    if (Object.keys(headers).length > 0) out['headers'] = headers
  }
  if (raw['enabled_tools'] !== undefined) out['enabledTools'] = raw['enabled_tools']
  if (raw['disabled_tools'] !== undefined) out['disabledTools'] = raw['disabled_tools']
  return out
}

/** Reads the servers of `text` (the file's content); throws a one-line Error when it is not TOML. */
export function codexServers(text: string, file: string): ImportedServers {
  let value: unknown
  try {
    value = parse(text)
  } catch (error) {
    // The whole file is unusable: said in one line, nothing is imported.
    throw new Error(`${file}: invalid TOML (${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)})`, { cause: error })
  }
  const problems: string[] = []
  const notes: string[] = []
  const user: Record<string, Record<string, unknown>> = {}
  const section = isObject(value) ? value['mcp_servers'] : undefined
  if (section !== undefined && !isObject(section)) problems.push(`${file} mcp_servers: not a table of servers`)
  const where = `${file} mcp_servers`
  for (const [name, raw] of Object.entries(isObject(section) ? section : {})) {
    if (!isObject(raw) || !isServerName(name)) {
      problems.push(isServerName(name) ? `${where}: server ${JSON.stringify(name)}: must be a table` : `${where}: server ${JSON.stringify(name)}: invalid name (use letters, digits, "_", "-" and ".", at most 64)`)
      continue
    }
    if (raw['enabled'] === false) {
      notes.push(`${where}: server ${JSON.stringify(name)}: disabled in Codex (enabled = false); not imported`)
      continue
    }
    const entry = entryOf(raw)
    if (typeof entry === 'string') {
      problems.push(`${where}: server ${JSON.stringify(name)}: ${entry}`)
      continue
    }
    const checked = readServerEntry(name, entry, { where })
    if (!checked.ok) {
      problems.push(checked.problem)
      continue
    }
    const dropped = Object.keys(raw).filter((key) => !READ.has(key))
    if (dropped.length > 0) notes.push(`${where}: server ${JSON.stringify(name)}: ${dropped.map((key) => JSON.stringify(key)).join(', ')} not imported (dsh does not read ${dropped.length === 1 ? 'it' : 'them'})`)
    user[name] = entry
  }
  return { user, project: {}, problems, notes }
}
