/**
 * One server entry of any source (`.mcp.json`, `--mcp-config`, the config file's `mcp.servers`,
 * the store of `dsh mcp add`, an editor's `session/new`) checked and turned into a
 * {@link ServerEntry}. Every problem is one line naming the file, the server and what is wrong.
 */
import { expandVariables } from './env-expand.ts'
import type { ServerOptions, ServerTransportConfig } from './types.ts'

/** Where an entry is read from, for error lines. */
export interface EntryContext {
  /** File (or other origin such as `session/new`) named first in error lines. */
  readonly where: string
  /** Environment for `${VAR}` expansion; absent: no expansion. */
  readonly expandEnv?: Readonly<Record<string, string | undefined>>
}

/** A checked entry or the one line that says why it is unusable. */
export type EntryResult = { readonly ok: true; readonly config: ServerTransportConfig; readonly options: ServerOptions } | { readonly ok: false; readonly problem: string }

const serverName = /^[A-Za-z0-9_.-]{1,64}$/

/** True for a usable server name. */
export function isServerName(name: string): boolean {
  return serverName.test(name)
}

const knownKeys = new Set(['type', 'transport', 'command', 'args', 'env', 'cwd', 'url', 'headers', 'enabledTools', 'disabledTools'])

class EntryProblem extends Error {}

function stringOf(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new EntryProblem(`${what} must be a string`)
  return value
}

function stringList(value: unknown, what: string): string[] {
  if (value === undefined) return []
  if (!Array.isArray(value)) throw new EntryProblem(`${what} must be a list of strings`)
  return value.map((item, index) => stringOf(item, `${what}[${index}]`))
}

function stringMap(value: unknown, what: string): Record<string, string> {
  if (value === undefined) return {}
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new EntryProblem(`${what} must be an object of strings`)
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, stringOf(item, `${what}.${key}`)]))
}

/** Checks one raw entry. */
export function readServerEntry(name: string, raw: unknown, context: EntryContext): EntryResult {
  const prefix = `${context.where}: server ${JSON.stringify(name)}`
  if (!isServerName(name)) return { ok: false, problem: `${prefix}: invalid name (use letters, digits, "_", "-" and ".", at most 64)` }
  try {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new EntryProblem('must be an object')
    // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- checked just above: a non-null, non-array object
    const entry = raw as Record<string, unknown>
    const unknownKey = Object.keys(entry).find((key) => !knownKeys.has(key))
    if (unknownKey !== undefined) throw new EntryProblem(`unknown key ${JSON.stringify(unknownKey)}`)
    const expand = (text: string, what: string): string => {
      if (context.expandEnv === undefined) return text
      const result = expandVariables(text, context.expandEnv)
      if ('missing' in result) throw new EntryProblem(`${what}: environment variable ${result.missing} is not set (write \${${result.missing}:-default} for a default)`)
      return result.text
    }
    const type = entry.type ?? entry.transport ?? (entry.url !== undefined ? 'http' : 'stdio')
    const options: ServerOptions = {
      ...(entry.enabledTools === undefined ? {} : { enabledTools: stringList(entry.enabledTools, 'enabledTools') }),
      ...(entry.disabledTools === undefined ? {} : { disabledTools: stringList(entry.disabledTools, 'disabledTools') }),
    }
    if (type === 'stdio') {
      if (entry.url !== undefined) throw new EntryProblem('a stdio server has no "url" (set "type": "http" for an HTTP server)')
      if (entry.command === undefined) throw new EntryProblem('missing "command"')
      const command = expand(stringOf(entry.command, 'command'), 'command')
      if (command.trim() === '') throw new EntryProblem('"command" is empty')
      const args = stringList(entry.args, 'args').map((arg, index) => expand(arg, `args[${index}]`))
      const env = Object.fromEntries(Object.entries(stringMap(entry.env, 'env')).map(([key, value]) => [key, expand(value, `env.${key}`)]))
      const cwd = entry.cwd === undefined ? undefined : expand(stringOf(entry.cwd, 'cwd'), 'cwd')
      return { ok: true, config: { transport: 'stdio', command, args, env, ...(cwd === undefined ? {} : { cwd }) }, options }
    }
    if (type === 'http' || type === 'sse' || type === 'streamable-http' || type === 'streamableHttp') {
      if (entry.command !== undefined) throw new EntryProblem(`an ${type} server has no "command"`)
      if (entry.url === undefined) throw new EntryProblem('missing "url"')
      const url = expand(stringOf(entry.url, 'url'), 'url')
      let parsed: URL
      try {
        parsed = new URL(url)
      } catch {
        // Reported as the entry's problem below.
        throw new EntryProblem(`"url" ${JSON.stringify(url)} is not a URL`)
      }
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new EntryProblem(`"url" ${JSON.stringify(url)} is not http(s)`)
      const headers = Object.fromEntries(Object.entries(stringMap(entry.headers, 'headers')).map(([key, value]) => [key, expand(value, `headers.${key}`)]))
      return { ok: true, config: { transport: 'http', url, headers }, options }
    }
    throw new EntryProblem(`unknown transport ${JSON.stringify(type)} (use "stdio" or "http")`)
  } catch (error) {
    if (error instanceof EntryProblem) return { ok: false, problem: `${prefix}: ${error.message}` }
    throw error
  }
}
