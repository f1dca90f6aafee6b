/**
 * Files in Claude Code's `.mcp.json` shape: `{ "mcpServers": { "<name>": { "command", "args",
 * "env" } | { "type": "http", "url", "headers" } } }`, with `${VAR}` and `${VAR:-default}`
 * expanded. A file that cannot be read or parsed is one problem line; a bad entry is one line and
 * the other entries still count.
 */
import { errorMessage, readSmallFile } from '@dsh/runtime'
import { readServerEntry } from './server-spec.ts'
import type { ServerEntry, ServerSource } from './types.ts'

/** What a file yields. */
export interface McpJsonRead {
  /** The usable entries, in file order. */
  readonly entries: readonly ServerEntry[]
  /** One line per problem (file, server, what). */
  readonly problems: readonly string[]
  /** The exact text read (for the trust digest); absent when the file could not be read. */
  readonly text?: string
}

/** Parses the text of a `.mcp.json`-shaped file. */
export function parseMcpJson(text: string, options: { readonly file: string; readonly source: ServerSource; readonly env: Readonly<Record<string, string | undefined>> }): McpJsonRead {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    // Malformed JSON is this file's one problem; nothing of it is used.
    return { entries: [], problems: [`${options.file}: invalid JSON (${errorMessage(error)})`], text }
  }
  const servers: unknown = typeof value === 'object' && value !== null && !Array.isArray(value) ? Reflect.get(value, 'mcpServers') : undefined
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) return { entries: [], problems: [`${options.file}: expected an object with "mcpServers": { "<name>": { … } }`], text }
  const entries: ServerEntry[] = []
  const problems: string[] = []
  for (const [name, raw] of Object.entries(servers)) {
    const result = readServerEntry(name, raw, { where: options.file, expandEnv: options.env })
    if (result.ok) entries.push({ name, source: options.source, file: options.file, config: result.config, options: result.options })
    else problems.push(result.problem)
  }
  return { entries, problems, text }
}

/** Largest `.mcp.json`-shaped file read. */
const MAX_MCP_JSON_BYTES = 4 * 1024 * 1024

/** Reads a `.mcp.json`-shaped file; `missingOk` makes an absent file an empty one. */
export function readMcpJson(file: string, options: { readonly source: ServerSource; readonly env: Readonly<Record<string, string | undefined>>; readonly missingOk?: boolean }): McpJsonRead {
  // A repository's file: a FIFO or a link to a device there must not hang dsh's start, nor a huge file fill its memory.
  const read = readSmallFile(file, { maxBytes: MAX_MCP_JSON_BYTES })
  switch (read.kind) {
    case 'file':
      return parseMcpJson(read.bytes.toString('utf8'), { file, source: options.source, env: options.env })
    case 'absent':
      // An absent project file means no project servers; any other failure is the file's problem.
      return { entries: [], problems: options.missingOk === true ? [] : [`${file}: cannot read (ENOENT)`] }
    case 'too-large':
      return { entries: [], problems: [`${file}: larger than ${MAX_MCP_JSON_BYTES / 1024 / 1024} MiB; not read`] }
    case 'not-file':
    case 'changed':
      return { entries: [], problems: [`${file}: not a regular file; not read`] }
    case 'unreadable':
      return { entries: [], problems: [`${file}: cannot read (${read.reason})`] }
    default: {
      const unknown: never = read
      return unknown
    }
  }
}
