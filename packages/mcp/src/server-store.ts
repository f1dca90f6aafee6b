/**
 * The file `$DSH_HOME/mcp-servers.json` behind `dsh mcp add|remove|enable|disable|trust`:
 * `{ "version": 1, "user": { "<name>": entry }, "projects": { "<project root>": { "servers":
 * { "<name>": entry }, "disabled": [names], "trustedMcpJson": "<sha256 of .mcp.json>" } } }`.
 * Entries are stored in the `.mcp.json` entry shape. An unreadable or malformed file is never
 * overwritten: reads report it in one line and writes refuse. Writes are atomic (temp file, rename).
 */
import { randomUUID } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { errnoCode, errorMessage } from '@dsh/runtime'

/** File name inside `$DSH_HOME`. */
export const STORE_FILE = 'mcp-servers.json'

/** What one project root keeps. */
export interface ProjectRecord {
  readonly servers: Readonly<Record<string, unknown>>
  readonly disabled: readonly string[]
  readonly trustedMcpJson?: string
}

/** The whole store. */
export interface StoreContent {
  readonly user: Readonly<Record<string, unknown>>
  readonly projects: Readonly<Record<string, ProjectRecord>>
}

/** Reading the store: its content, or the one line saying why it cannot be used. */
export type StoreRead = { readonly ok: true; readonly content: StoreContent } | { readonly ok: false; readonly problem: string }

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The store's path in a home. */
export function storePath(dshHome: string): string {
  return join(dshHome, STORE_FILE)
}

/** Reads the store; an absent file is an empty store. Never throws. */
export function readStore(dshHome: string): StoreRead {
  const file = storePath(dshHome)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    // Never written yet: empty. Anything else makes the store unusable until repaired.
    if (errnoCode(error) === 'ENOENT') return { ok: true, content: { user: {}, projects: {} } }
    return { ok: false, problem: `${file}: cannot read (${errnoCode(error) ?? errorMessage(error)})` }
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    // Corrupt content is reported and left as it is.
    return { ok: false, problem: `${file}: invalid JSON (${errorMessage(error)}); fix it or move it aside` }
  }
  if (!isObject(value) || value.version !== 1 || !isObject(value.user ?? {}) || !isObject(value.projects ?? {})) return { ok: false, problem: `${file}: not an MCP server store of format 1; fix it or move it aside` }
  const projects: Record<string, ProjectRecord> = {}
  const storedProjects: unknown = value.projects ?? {}
  const storedUser: unknown = value.user ?? {}
  if (!isObject(storedProjects) || !isObject(storedUser)) return { ok: false, problem: `${file}: not an MCP server store of format 1; fix it or move it aside` }
  for (const [root, record] of Object.entries(storedProjects)) {
    if (!isObject(record)) return { ok: false, problem: `${file}: projects.${root} is not an object; fix it or move it aside` }
    const servers = isObject(record.servers) ? record.servers : {}
    const disabled = Array.isArray(record.disabled) ? record.disabled.filter((item): item is string => typeof item === 'string') : []
    projects[root] = { servers, disabled, ...(typeof record.trustedMcpJson === 'string' ? { trustedMcpJson: record.trustedMcpJson } : {}) }
  }
  return { ok: true, content: { user: storedUser, projects } }
}

/** Replaces the store atomically. */
export function writeStore(dshHome: string, content: StoreContent): void {
  const file = storePath(dshHome)
  const projects = Object.fromEntries(Object.entries(content.projects).filter(([, record]) => Object.keys(record.servers).length > 0 || record.disabled.length > 0 || record.trustedMcpJson !== undefined))
  const text = `${JSON.stringify({ version: 1, user: content.user, projects }, null, 2)}\n`
  mkdirSync(dirname(file), { recursive: true })
  const temp = `${file}.${randomUUID()}.tmp`
  try {
    writeFileSync(temp, text, { flag: 'wx', mode: 0o600, flush: true })
    renameSync(temp, file)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
}

/** The record of a project root (empty when none). */
export function projectRecord(content: StoreContent, root: string): ProjectRecord {
  return content.projects[root] ?? { servers: {}, disabled: [] }
}

/** The content with one project's record replaced. */
export function withProject(content: StoreContent, root: string, record: ProjectRecord): StoreContent {
  return { ...content, projects: { ...content.projects, [root]: record } }
}
