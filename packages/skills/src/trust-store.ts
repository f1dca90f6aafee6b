/**
 * The file `$DSH_HOME/skills-trust.json` behind `dsh skills trust`: `{ "version": 1, "projects":
 * { "<project root>": { "<SKILL.md path>": "<sha256 of its content>" } } }`. A project skill's
 * `allowed-tools` count only while its file's digest is the one recorded (a changed file is
 * untrusted again), as `.mcp.json` is pinned by `dsh mcp trust`. A malformed file is reported and
 * never overwritten. Writes are atomic (temp file, rename).
 */
import { randomUUID } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { errnoCode, errorMessage } from '@dsh/runtime'

/** File name inside `$DSH_HOME`. */
export const TRUST_FILE = 'skills-trust.json'

/** Recorded digests by project root, then SKILL.md path. */
export type TrustContent = Readonly<Record<string, Readonly<Record<string, string>>>>

/** The store, or the one line saying why it cannot be used. */
export type TrustRead = { readonly ok: true; readonly projects: TrustContent } | { readonly ok: false; readonly problem: string }

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** Reads the store; an absent file trusts nothing. Never throws. */
export function readTrust(dshHome: string): TrustRead {
  const file = join(dshHome, TRUST_FILE)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    // Never written: nothing trusted. Any other failure makes the store unusable (nothing trusted).
    if (errnoCode(error) === 'ENOENT') return { ok: true, projects: {} }
    return { ok: false, problem: `${file}: cannot read (${errnoCode(error) ?? errorMessage(error)})` }
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    // Corrupt content trusts nothing and is left for the user to repair.
    return { ok: false, problem: `${file}: invalid JSON (${errorMessage(error)}); fix it or move it aside` }
  }
  if (!isObject(value) || value['version'] !== 1 || !isObject(value['projects'])) return { ok: false, problem: `${file}: not a skills trust file of format 1; fix it or move it aside` }
  const projects: Record<string, Record<string, string>> = {}
  for (const [root, record] of Object.entries(value['projects'])) {
    if (!isObject(record)) continue
    projects[root] = Object.fromEntries(Object.entries(record).filter((pair): pair is [string, string] => typeof pair[1] === 'string'))
  }
  return { ok: true, projects }
}

/** Records `digests` (SKILL.md path → sha256) as the trusted skills of `projectRoot`, replacing earlier ones. */
export function writeTrust(dshHome: string, projectRoot: string, digests: Readonly<Record<string, string>>): void {
  const current = readTrust(dshHome)
  if (!current.ok) throw new Error(current.problem)
  const file = join(dshHome, TRUST_FILE)
  const text = `${JSON.stringify({ version: 1, projects: { ...current.projects, [projectRoot]: digests } }, null, 2)}\n`
  mkdirSync(dirname(file), { recursive: true })
  const temp = `${file}.${randomUUID()}.tmp`
  try {
    writeFileSync(temp, text, { flag: 'wx', mode: 0o600 })
    renameSync(temp, file)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
}
