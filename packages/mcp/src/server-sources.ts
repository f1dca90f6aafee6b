/**
 * Every configured server of one working directory, from every source, in one list:
 * `--mcp-config` files, the project's servers stored by `dsh mcp add`, the project's `.mcp.json`
 * (blocked as `untrusted` until `dsh mcp trust` recorded its digest), the user's stored servers,
 * and the config file's `mcp.servers`. A name defined by several sources is taken from the first
 * in that order; each later definition is one problem line. Names disabled for the project are
 * kept but blocked. Never throws; never writes.
 */
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { readMcpJson } from './mcp-json.ts'
import { projectRootOf } from '@dsh/runtime'
import { readServerEntry } from './server-spec.ts'
import { projectRecord, readStore, storePath } from './server-store.ts'
import type { ServerEntry, ServerSource } from './types.ts'

/** Inputs of {@link collectServers}. */
export interface CollectOptions {
  readonly dshHome: string
  /** The session's working directory (canonical). */
  readonly cwd: string
  /** Environment for `${VAR}` expansion. */
  readonly env: Readonly<Record<string, string | undefined>>
  /** `--mcp-config` files (absolute), in command-line order. */
  readonly mcpConfigFiles?: readonly string[]
  /** The config file's `mcp.servers` and the file's path (for error lines). */
  readonly configServers?: { readonly file: string; readonly servers: Readonly<Record<string, unknown>> }
}

/** Every server and every problem found. */
export interface CollectedServers {
  readonly entries: readonly ServerEntry[]
  readonly problems: readonly string[]
  /** The project root the project sources are keyed by. */
  readonly projectRoot: string
  /** The project's `.mcp.json`, its digest, and whether that digest is trusted (absent: no file). */
  readonly mcpJson?: { readonly file: string; readonly digest: string; readonly trusted: boolean }
}

/** SHA-256 hex of a `.mcp.json` text (what `dsh mcp trust` records). */
export function mcpJsonDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/** Entries of the store or the config file; `${VAR}` is expanded from `env` as in `.mcp.json`. */
function storedEntries(servers: Readonly<Record<string, unknown>>, source: ServerSource, where: string, problems: string[], env: CollectOptions['env']): ServerEntry[] {
  const entries: ServerEntry[] = []
  for (const [name, raw] of Object.entries(servers)) {
    const result = readServerEntry(name, raw, { where, expandEnv: env })
    if (result.ok) entries.push({ name, source, file: where, config: result.config, options: result.options })
    else problems.push(result.problem)
  }
  return entries
}

/** Collects the servers of `cwd`. */
export function collectServers(options: CollectOptions): CollectedServers {
  const problems: string[] = []
  const projectRoot = projectRootOf(options.cwd)
  const store = readStore(options.dshHome)
  if (!store.ok) problems.push(store.problem)
  const content = store.ok ? store.content : { user: {}, projects: {} }
  const project = projectRecord(content, projectRoot)
  const ordered: ServerEntry[] = []
  for (const file of options.mcpConfigFiles ?? []) {
    const read = readMcpJson(file, { source: '--mcp-config', env: options.env })
    problems.push(...read.problems)
    ordered.push(...read.entries)
  }
  ordered.push(...storedEntries(project.servers, 'project', `${storePath(options.dshHome)} (project ${projectRoot})`, problems, options.env))
  const mcpJsonFile = join(projectRoot, '.mcp.json')
  const projectFile = readMcpJson(mcpJsonFile, { source: '.mcp.json', env: options.env, missingOk: true })
  let mcpJson: CollectedServers['mcpJson']
  // A file that is there but cannot be read (a FIFO, a link to a device, too large) is said; absent says nothing.
  if (projectFile.text === undefined) problems.push(...projectFile.problems)
  else {
    const digest = mcpJsonDigest(projectFile.text)
    const trusted = project.trustedMcpJson === digest
    mcpJson = { file: mcpJsonFile, digest, trusted }
    // An untrusted file's problems are shown too: trusting it would not make them go away.
    problems.push(...projectFile.problems)
    ordered.push(...projectFile.entries.map((entry): ServerEntry => (trusted ? entry : { ...entry, blocked: 'untrusted' })))
  }
  ordered.push(...storedEntries(content.user, 'user', `${storePath(options.dshHome)} (user)`, problems, options.env))
  if (options.configServers !== undefined) ordered.push(...storedEntries(options.configServers.servers, 'config', options.configServers.file, problems, options.env))
  const seen = new Map<string, ServerEntry>()
  const entries: ServerEntry[] = []
  for (const entry of ordered) {
    const first = seen.get(entry.name)
    if (first !== undefined) {
      problems.push(`${entry.file ?? entry.source}: server ${JSON.stringify(entry.name)}: duplicate name (already defined by ${first.file ?? first.source}); this one is ignored`)
      continue
    }
    seen.set(entry.name, entry)
    entries.push(entry.blocked === undefined && project.disabled.includes(entry.name) ? { ...entry, blocked: 'disabled' } : entry)
  }
  return { entries, problems, projectRoot, ...(mcpJson === undefined ? {} : { mcpJson }) }
}
