/**
 * The MCP servers an editor sends in ACP `session/new` / `session/load` (`mcpServers`: stdio
 * entries with `env` as name/value pairs, `http` and `sse` entries with `headers` as pairs) as
 * {@link ServerEntry}s of source `editor`, checked like every other source: an entry that cannot
 * be used is one problem line naming the session and the server, and the others still start.
 */
import { readServerEntry } from './server-spec.ts'
import type { ServerEntry } from './types.ts'

/** A name/value pair of an editor's entry. */
interface Pair {
  readonly name: string
  readonly value: string
}

/** One entry of ACP `mcpServers`, as the protocol spells it. */
export interface EditorServer {
  readonly name: string
  readonly type?: string
  readonly command?: string
  readonly args?: readonly string[]
  readonly env?: readonly Pair[]
  readonly url?: string
  readonly headers?: readonly Pair[]
}

const pairs = (list: readonly Pair[] | undefined): Record<string, string> | undefined => (list === undefined ? undefined : Object.fromEntries(list.map((pair) => [pair.name, pair.value])))

/** The usable entries and one line per unusable or duplicate one; `where` names the origin (`session/new`). */
export function editorEntries(servers: readonly EditorServer[], where: string): { readonly entries: readonly ServerEntry[]; readonly problems: readonly string[] } {
  const entries: ServerEntry[] = []
  const problems: string[] = []
  for (const server of servers) {
    if (entries.some((entry) => entry.name === server.name)) {
      problems.push(`${where}: server ${JSON.stringify(server.name)}: duplicate name (the first one is used)`)
      continue
    }
    const env = pairs(server.env)
    const headers = pairs(server.headers)
    const raw = server.url === undefined ? { command: server.command, args: server.args ?? [], ...(env === undefined ? {} : { env }) } : { type: server.type ?? 'http', url: server.url, ...(headers === undefined ? {} : { headers }) }
    const read = readServerEntry(server.name, raw, { where })
    if (read.ok) entries.push({ name: server.name, source: 'editor', config: read.config, options: read.options })
    else problems.push(read.problem)
  }
  return { entries, problems }
}
