/**
 * Repositories that a sandboxed command created below the top of a root (`git init sub`,
 * `git clone … sub`) were unknown when the command started, so nothing of theirs was bound
 * read-only: the command could leave a hook or a program-running config key in them for the
 * user's next git command there. Each check finds the git directories of the searched roots
 * (git-dirs.ts, the same search and budget as at launch) and looks into every one not seen
 * before: a hook that is not one of git's `*.sample` files, or a config key that makes git run a
 * program, is a plant, and the whole new git directory is handed back for reverting (the work
 * tree stays; an ordinary `git init` or `git clone` leaves neither, so it is never touched).
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { readSmallFile } from '@dsh/runtime'
import { findGitEntries, gitDirectoriesIn } from './git-dirs.ts'

/** Largest config file looked into; a larger one counts as a plant. */
const MAX_CONFIG_BYTES = 1024 * 1024

/** Config keys (lower case, `section.key` or `section.*.key`) that make git run a program. */
const RUNS_PROGRAM = new Set([
  'core.fsmonitor',
  'core.hookspath',
  'core.sshcommand',
  'core.pager',
  'core.editor',
  'core.askpass',
  'core.gitproxy',
  'sequence.editor',
  'diff.external',
  'diff.*.textconv',
  'diff.*.command',
  'filter.*.clean',
  'filter.*.smudge',
  'filter.*.process',
  'merge.*.driver',
  'credential.helper',
  'credential.*.helper',
  'gpg.program',
  'gpg.*.program',
  'uploadpack.packobjectshook',
  'remote.*.uploadpack',
  'remote.*.receivepack',
  'include.path',
  'includeif.*.path',
  'pager.*',
  'alias.*',
])

/** A section header: its name, an optional `"subsection"`, and what follows `]` on the line. */
const HEADER = /^\[\s*([^\s\]"]+)(\s+"(?:[^"\\]|\\.)*")?\s*\]\s*(.*)$/

/** The section of a header, subsections generalised (`[diff "x"]` and `[diff.x]` are `diff.*`). */
const sectionOf = (header: RegExpExecArray): string => {
  const name = (header[1] ?? '').toLowerCase()
  return header[2] !== undefined || name.includes('.') ? `${name.slice(0, name.includes('.') ? name.indexOf('.') : name.length)}.*` : name
}

/** The keys of a git config text as `section.key` / `section.*.key` (subsections generalised), lower case. */
export function configKeys(text: string): string[] {
  const keys: string[] = []
  let section = ''
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue
    const header = HEADER.exec(line)
    if (header !== null) {
      section = sectionOf(header)
      // `[section] key = value` on the header's line.
      const rest = header[3] ?? ''
      if (rest !== '' && !rest.startsWith('#') && !rest.startsWith(';')) keys.push(`${section}.${(/^[A-Za-z0-9-]+/.exec(rest)?.[0] ?? '').toLowerCase()}`)
      continue
    }
    const key = /^[A-Za-z][A-Za-z0-9-]*/.exec(line)?.[0]
    if (key !== undefined) keys.push(`${section}.${key.toLowerCase()}`)
  }
  return keys
}

/** The last value of `key` (lower case `section.key`, no subsection) in a git config text, quotes removed. */
export function configKeyValue(text: string, key: string): string | undefined {
  const dot = key.indexOf('.')
  const wantedSection = key.slice(0, dot)
  const wantedName = key.slice(dot + 1)
  let section = ''
  let value: string | undefined
  for (const raw of text.split('\n')) {
    let line = raw.trim()
    const header = HEADER.exec(line)
    if (header !== null) {
      section = sectionOf(header)
      line = header[3] ?? ''
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line)
    if (entry === null || section !== wantedSection || (entry[1] ?? '').toLowerCase() !== wantedName) continue
    const raw2 = (entry[2] ?? '').replace(/\s+[#;].*$/, '').trim()
    value = raw2.startsWith('"') && raw2.endsWith('"') && raw2.length >= 2 ? raw2.slice(1, -1) : raw2
  }
  return value
}

/** Whether a config key makes git run a program. */
export const runsProgram = (key: string): boolean => RUNS_PROGRAM.has(key) || RUNS_PROGRAM.has(`${key.slice(0, key.indexOf('.'))}.*`)

/** Why a git directory holds something git would run, or undefined. */
export function plantIn(gitDir: string): string | undefined {
  let hooks: string[] = []
  try {
    hooks = readdirSync(join(gitDir, 'hooks')).filter((name) => !name.endsWith('.sample'))
  } catch {
    // No hooks directory (or unreadable: git could not run it either).
  }
  if (hooks.length > 0) return `hook ${hooks.toSorted()[0] ?? ''}`
  for (const name of ['config', 'config.worktree']) {
    const read = readSmallFile(join(gitDir, name), { maxBytes: MAX_CONFIG_BYTES })
    // Absent: git runs nothing from it. A FIFO, a device, a huge file or one that cannot be read is
    // a config dsh cannot vouch for (and a FIFO would hang git there): a plant.
    if (read.kind === 'absent') continue
    if (read.kind !== 'file') return `${name} that is not a small regular file (${read.kind})`
    const key = configKeys(read.bytes.toString('utf8')).find(runsProgram)
    if (key !== undefined) return `${name} key ${key}`
  }
  return undefined
}

/** A planted new repository: its `.git` entry (what is reverted) and why. */
export interface RepositoryPlant {
  readonly gitEntry: string
  readonly root: string
  readonly why: string
}

/** Remembers the git directories of each searched root and finds new ones holding plants. */
export class NewRepositories {
  /** Root → git directories known there. */
  readonly #known = new Map<string, Set<string>>()

  /** The git directories found in `root` now. */
  #current(root: string): { entry: string; dirs: string[] }[] {
    return findGitEntries(root).flatMap((entry) => (entry.kind === 'directory' ? [{ entry: entry.path, dirs: gitDirectoriesIn(entry.path) }] : []))
  }

  /** The git directories a launch found in `root` (protected-inside-roots.ts) count as known. */
  know(root: string, dirs: readonly string[]): void {
    this.#known.set(root, new Set(dirs))
  }

  /** No sandbox ran since the last check: the repositories there now are the user's, known from now on. */
  settle(): void {
    for (const [root, known] of this.#known) for (const found of this.#current(root)) for (const dir of found.dirs) known.add(dir)
  }

  /**
   * The new repositories of the known roots holding a plant. A new one without a plant becomes
   * known (its files are bound read-only from the next launch on).
   */
  check(): RepositoryPlant[] {
    const plants: RepositoryPlant[] = []
    for (const [root, known] of this.#known) {
      for (const found of this.#current(root)) {
        const fresh = found.dirs.filter((dir) => !known.has(dir))
        if (fresh.length === 0) continue
        const why = fresh.map(plantIn).find((reason) => reason !== undefined)
        if (why !== undefined) plants.push({ gitEntry: found.entry, root, why })
        else for (const dir of fresh) known.add(dir)
      }
    }
    return plants
  }
}
