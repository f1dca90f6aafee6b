/**
 * Claude Code's MCP servers as entries of dsh's store (`dsh mcp import claude`): its user scope
 * (the top-level `mcpServers` of `~/.claude.json`) and the local scope of this project
 * (`projects[<dir>].mcpServers` for the project root or the working directory, the directory
 * `claude` ran in). An entry keeps the keys dsh reads (`type`, `command`, `args`, `env`, `cwd`,
 * `url`, `headers`); any other key is named in a note and dropped. `${VAR}` references stay as
 * written: they are expanded each time the server starts, as in Claude Code. An entry dsh cannot
 * use is a problem line; the others still come through. Pure: the caller reads the file.
 */
import { isServerName, readServerEntry } from './server-spec.ts'

/** The keys of an entry dsh keeps. */
const KEPT = ['type', 'command', 'args', 'env', 'cwd', 'url', 'headers'] as const

/** What one `~/.claude.json` offers. */
export interface ImportedServers {
  /** User-scope servers (every project), by name. */
  readonly user: Readonly<Record<string, Record<string, unknown>>>
  /** Local-scope servers of this project, by name. */
  readonly project: Readonly<Record<string, Record<string, unknown>>>
  /** One line per entry that cannot be imported. */
  readonly problems: readonly string[]
  /** One line per dropped key. */
  readonly notes: readonly string[]
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Reads the servers of `text` (the file's content) for a project whose directories Claude Code
 * may have keyed it by (`dirs`: the project root, the working directory); throws a one-line
 * Error when the text is not a JSON object.
 */
export function claudeServers(text: string, file: string, dirs: readonly string[]): ImportedServers {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    // The whole file is unusable: said in one line, nothing is imported.
    throw new Error(`${file}: invalid JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error })
  }
  if (!isObject(value)) throw new Error(`${file}: not a JSON object`)
  const problems: string[] = []
  const notes: string[] = []
  const take = (section: unknown, where: string): Record<string, Record<string, unknown>> => {
    const out: Record<string, Record<string, unknown>> = {}
    if (section === undefined) return out
    if (!isObject(section)) {
      problems.push(`${where}: not an object of servers`)
      return out
    }
    for (const [name, raw] of Object.entries(section)) {
      if (!isObject(raw) || !isServerName(name)) {
        const checked = readServerEntry(name, raw, { where })
        problems.push(checked.ok ? `${where}: server ${JSON.stringify(name)}: must be an object` : checked.problem)
        continue
      }
      const entry = Object.fromEntries(KEPT.flatMap((key) => (raw[key] === undefined ? [] : [[key, raw[key]]])))
      const dropped = Object.keys(raw).filter((key) => !(KEPT as readonly string[]).includes(key))
      const checked = readServerEntry(name, entry, { where })
      if (!checked.ok) {
        problems.push(checked.problem)
        continue
      }
      if (dropped.length > 0) notes.push(`${where}: server ${JSON.stringify(name)}: ${dropped.map((key) => JSON.stringify(key)).join(', ')} not imported (dsh does not read ${dropped.length === 1 ? 'it' : 'them'})`)
      out[name] = entry
    }
    return out
  }
  const user = take(value['mcpServers'], `${file} mcpServers`)
  const projects = isObject(value['projects']) ? value['projects'] : {}
  const key = dirs.find((dir) => isObject(projects[dir]))
  const record = key === undefined ? undefined : projects[key]
  const project = isObject(record) ? take(record['mcpServers'], `${file} projects[${JSON.stringify(key)}].mcpServers`) : {}
  return { user, project, problems, notes }
}
