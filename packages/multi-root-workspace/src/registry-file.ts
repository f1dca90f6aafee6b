/**
 * The registry file `$DSH_HOME/workspace-roots.json`:
 * `{ "version": 1, "primaries": { "<canonical primary root>": { "roots": [record, …] } } }`.
 *
 * Reading has three outcomes: absent (an empty registry), readable, or unavailable (unreadable,
 * not JSON, an unexpected shape, or a newer version) with a one-line problem that says what to
 * do. An unavailable file is never written: the caller lists nothing and refuses mutations.
 * Writing replaces the file atomically (a private temp file, flushed, renamed over it), keeping
 * every other primary root's entries exactly as they were read; a failed write names the file
 * and leaves the old one as it was.
 */
import { randomUUID } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import { describeWriteError, errnoCode, errorMessage, removeStaleTempFiles, tempFileName } from '@dsh/runtime'
import { RootsError } from './errors.ts'

/** File name inside `$DSH_HOME`. */
export const REGISTRY_FILE = 'workspace-roots.json'

/** Format version this build reads and writes. */
export const REGISTRY_VERSION = 1

/** Raw stored values per primary root. */
export type Primaries = ReadonlyMap<string, readonly unknown[]>

/** Result of reading the file. */
export type RegistryRead = { readonly state: 'readable'; readonly primaries: Primaries } | { readonly state: 'unavailable'; readonly problem: string }

const repair = (file: string): string => `dsh leaves it untouched: fix it, or move it aside (mv ${file} ${file}.bad) and add the roots again`

function unavailable(file: string, what: string): RegistryRead {
  return { state: 'unavailable', problem: `the workspace roots registry ${file} ${what}; ${repair(file)}` }
}

function primariesOf(file: string, value: unknown): RegistryRead {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return unavailable(file, 'is not a JSON object')
  const version: unknown = Reflect.get(value, 'version')
  if (typeof version === 'number' && version > REGISTRY_VERSION) {
    return { state: 'unavailable', problem: `the workspace roots registry ${file} was written by a newer dsh (format ${version}); use that version, or move the file aside to start over` }
  }
  if (version !== REGISTRY_VERSION) return unavailable(file, 'has no supported format version')
  const stored: unknown = Reflect.get(value, 'primaries')
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return unavailable(file, 'has no "primaries" object')
  const primaries = new Map<string, readonly unknown[]>()
  for (const [primary, entry] of Object.entries(stored)) {
    const roots: unknown = typeof entry === 'object' && entry !== null ? Reflect.get(entry, 'roots') : undefined
    if (!Array.isArray(roots)) return unavailable(file, `has no "roots" list for ${primary}`)
    primaries.set(primary, roots)
  }
  return { state: 'readable', primaries }
}

/** Reads the registry file. Never throws. */
export function readRegistry(file: string): RegistryRead {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    // A registry that was never written is empty; any other failure makes it unavailable.
    if (errnoCode(error) === 'ENOENT') return { state: 'readable', primaries: new Map() }
    return unavailable(file, `cannot be read (${errnoCode(error) ?? errorMessage(error)})`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    // Corrupt content is reported, never repaired by overwriting.
    return unavailable(file, `is not valid JSON (${errorMessage(error)})`)
  }
  return primariesOf(file, value)
}

/** Replaces the registry file atomically with `primaries` (entries with no roots are dropped). */
export function writeRegistry(file: string, primaries: Primaries): void {
  // Own properties whatever the key: an assignment would drop a hand-written "__proto__" entry.
  const stored = Object.fromEntries([...primaries].filter(([, roots]) => roots.length > 0).map(([primary, roots]) => [primary, { roots }]))
  const text = `${JSON.stringify({ version: REGISTRY_VERSION, primaries: stored }, null, 2)}\n`
  mkdirSync(dirname(file), { recursive: true })
  const prefix = `${basename(file)}.`
  // Left over by a writer killed between write and rename (the caller holds the registry lock).
  removeStaleTempFiles(dirname(file), prefix)
  const temp = `${dirname(file)}/${tempFileName(prefix, randomUUID())}`
  try {
    writeFileSync(temp, text, { flag: 'wx', mode: 0o600, flush: true })
    renameSync(temp, file)
  } catch (error) {
    rmSync(temp, { force: true })
    throw new RootsError('storage-unavailable', `cannot write the workspace roots registry ${file}: ${describeWriteError(error)}; nothing was changed`)
  }
}
