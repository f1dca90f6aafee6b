/**
 * Project hook files — `<cwd>/.dsh/settings.json` and `<cwd>/.claude/settings.json` (their `hooks`
 * key) — and the trust that lets them run. A repository is untrusted input: its hooks run only
 * after `dsh hooks trust` pinned the file's SHA-256 in `$DSH_HOME/hooks-trust.json`; a file that
 * changed since is untrusted again (listed, never run) until it is trusted anew.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { readSmallFile } from '@dsh/runtime'

/** Largest project settings file read. */
const MAX_PROJECT_FILE_BYTES = 4 * 1024 * 1024

/** The project files read, in order. */
export function projectHookFiles(cwd: string): readonly string[] {
  return [join(cwd, '.dsh', 'settings.json'), join(cwd, '.claude', 'settings.json')]
}

/** One project file as found. */
export interface ProjectHookFile {
  readonly file: string
  /** SHA-256 hex of the content. */
  readonly digest: string
  /** Its current content is the pinned one. */
  readonly trusted: boolean
  /** The `hooks` value (undefined when the file has none). */
  readonly section: unknown
  /** One line when the file is not valid JSON. */
  readonly problem?: string
}

/** The trust store file. */
export function trustFile(dshHome: string): string {
  return join(dshHome, 'hooks-trust.json')
}

function readTrust(dshHome: string): Record<string, string> {
  let text: string
  try {
    text = readFileSync(trustFile(dshHome), 'utf8')
  } catch {
    // No store yet (or unreadable): nothing is trusted, which is the safe reading.
    return {}
  }
  try {
    const value: unknown = JSON.parse(text)
    const files = typeof value === 'object' && value !== null && 'files' in value ? value.files : undefined
    if (typeof files !== 'object' || files === null) return {}
    return Object.fromEntries(Object.entries(files).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
  } catch {
    // A corrupt store trusts nothing; `dsh hooks trust` rewrites it.
    return {}
  }
}

/** Reads the project files that exist. */
export function readProjectHooks(cwd: string, dshHome: string): ProjectHookFile[] {
  const trust = readTrust(dshHome)
  const found: ProjectHookFile[] = []
  for (const file of projectHookFiles(cwd)) {
    // A repository's file: a FIFO or a link to a device there must not hang dsh's start, nor a huge file fill its memory.
    const read = readSmallFile(file, { maxBytes: MAX_PROJECT_FILE_BYTES })
    // Absent (the usual case): the project has no hooks in this file.
    if (read.kind === 'absent') continue
    if (read.kind !== 'file') {
      const why = read.kind === 'unreadable' ? `cannot be read (${read.reason})` : read.kind === 'too-large' ? `is larger than ${MAX_PROJECT_FILE_BYTES / 1024 / 1024} MiB` : 'is not a regular file'
      found.push({ file, digest: '', trusted: false, section: undefined, problem: `${file} ${why}; its hooks are not read` })
      continue
    }
    const text = read.bytes.toString('utf8')
    const digest = createHash('sha256').update(text).digest('hex')
    const trusted = trust[file] === digest
    try {
      const value: unknown = JSON.parse(text)
      const section = typeof value === 'object' && value !== null && 'hooks' in value ? value.hooks : undefined
      found.push({ file, digest, trusted, section })
    } catch (error) {
      // Reported as one line; the other files still load.
      found.push({ file, digest, trusted, section: undefined, problem: `${file}: not valid JSON (${error instanceof Error ? error.message : String(error)})` })
    }
  }
  return found
}

/** Pins the current content of the project's files; returns the files trusted. */
export function trustProjectHooks(cwd: string, dshHome: string): ProjectHookFile[] {
  const files = readProjectHooks(cwd, dshHome)
  // A file that could not be read has no content to pin.
  const readable = files.filter((file) => file.digest !== '')
  const trust = { ...readTrust(dshHome), ...Object.fromEntries(readable.map((file) => [file.file, file.digest])) }
  const target = trustFile(dshHome)
  mkdirSync(dirname(target), { recursive: true })
  const temporary = `${target}.${process.pid}.tmp`
  writeFileSync(temporary, `${JSON.stringify({ version: 1, files: trust }, null, 2)}\n`, { mode: 0o600 })
  renameSync(temporary, target)
  return readable.map((file) => ({ ...file, trusted: true }))
}
