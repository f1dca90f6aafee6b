/**
 * Scans one `skills` directory through the filesystem port: each sub-folder holding a `SKILL.md`
 * is a skill. The file is probed like an instruction file (a link is followed only into a trusted
 * root; FIFOs, devices and directories are never opened) and read with the same bounded read.
 * Where the port reads small files in a batch (`readSmallTexts`), the `SKILL.md` files of the
 * plain sub-folders are looked at and read in one call, and only a link, or a file that changed
 * into something else while it was opened, goes through the probe one by one.
 * A folder without `SKILL.md` is no skill and is skipped quietly; a file that exists but cannot be
 * used is a broken skill with its problem. Rethrows only cancellation.
 */
import { join, sep } from 'node:path'
import type { FileSystemPort, FsSmallText, FsVersion } from '@dsh/contracts'
import { contentDigest, isTrusted, probeCandidate, readBounded, type LinkPolicy } from '@dsh/workspace-context'
import { readSkillMeta } from './front-matter.ts'
import type { BrokenSkill, LoadedSkill, SkillSource } from './types.ts'

/** Largest SKILL.md read (bytes). */
export const DEFAULT_MAX_SKILL_BYTES = 256 * 1024

const UNAVAILABLE: Readonly<Record<string, string>> = {
  'escaping-link': 'links outside the trusted roots',
  'symlink-refused': 'is a symlink and links are not followed',
  'probe-failed': 'could not be examined',
  'too-large': 'is larger than the skill size limit',
  'not-utf8': 'is not UTF-8 text',
  binary: 'contains NUL bytes',
  'read-failed': 'could not be read',
  'special-file-at-open': 'turned out to be a special file when opened',
}

/** A probe or read failure as the words of a warning line (`links outside the trusted roots (…)`). */
export const reasonText = (reason: string, detail?: string): string => `${UNAVAILABLE[reason] ?? reason}${detail === undefined ? '' : ` (${detail})`}`

/**
 * `join(dir, name)` for a listed entry `name` (one component, never `.` or `..`) of a normalised
 * directory: the concatenation, which is what `join` returns for those, without its normalising
 * pass (a scan builds several paths per skill).
 */
const child = (dir: string, name: string): string => (dir.endsWith(sep) ? `${dir}${name}` : `${dir}${sep}${name}`)

/** A parsed SKILL.md remembered at one provider version (see {@link ScanOptions.cache}). */
export interface ScanFact {
  readonly target: string
  readonly version: FsVersion
  /** When the file last changed (the probe's `changedAtMs`), if known. */
  readonly changedAtMs?: number | undefined
  readonly result: LoadedSkill | BrokenSkill
}

/** How long after its last change a file's version is trusted to change with its content (racy timestamps), in ms. */
export const SETTLE_MS = 2000

/** Options of one scan. */
export interface ScanOptions {
  readonly fs: FileSystemPort
  readonly policy: LinkPolicy
  readonly maxSkillBytes: number
  readonly signal?: AbortSignal | undefined
  /**
   * Parsed files by SKILL.md path, reused while the probe reports the same target and version and
   * the file last changed at least {@link SETTLE_MS} before the probe (a change within the same
   * timestamp tick could keep the version); others are read again and remembered.
   */
  readonly cache?: Map<string, ScanFact> | undefined
  /** Wall clock in epoch ms, comparable with file timestamps (default `Date.now`). */
  readonly now?: (() => number) | undefined
}

/**
 * Reads one skill folder `name` of `source`; `undefined` when it holds no SKILL.md. `canonicalFolder`:
 * the folder's canonical path when the caller knows it (a plain directory of a resolved source).
 */
export async function scanFolder(source: SkillSource, name: string, options: ScanOptions, canonicalFolder?: string): Promise<LoadedSkill | BrokenSkill | undefined> {
  const folder = join(source.dir, name)
  const file = join(folder, 'SKILL.md')
  const broken = (problem: string): BrokenSkill => ({ kind: 'broken', file, folder, problem, source })
  const startedAt = (options.now ?? Date.now)()
  const probe = await probeCandidate(options.fs, file, 'SKILL.md', options.policy, options.signal, canonicalFolder)
  if (probe.state === 'absent') return undefined
  if (probe.state === 'unavailable') return broken(reasonText(probe.reason, probe.detail))
  const known = options.cache?.get(file)
  const changedAt = probe.info.changedAtMs
  if (known !== undefined && known.version === probe.info.version && reusable(known, probe.target, source, startedAt)) return known.result
  const result = await readSkill(options, probe.target, probe.info.size, name, broken, { folder, file, source })
  options.cache?.set(file, { target: probe.target, version: probe.info.version, changedAtMs: changedAt, result })
  return result
}

/**
 * Whether a remembered fact may stand for the file at its version: the same target and source,
 * and a last change at least {@link SETTLE_MS} before `startedAt` (see {@link ScanOptions.cache}).
 */
function reusable(fact: ScanFact, target: string, source: SkillSource, startedAt: number): boolean {
  return fact.target === target && fact.result.source.dir === source.dir && fact.changedAtMs !== undefined && startedAt - fact.changedAtMs >= SETTLE_MS
}

/** The skill of read text, or the problem that makes it broken. */
function skillOf(text: string, name: string, broken: (problem: string) => BrokenSkill, where: Pick<LoadedSkill, 'folder' | 'file' | 'source'>): LoadedSkill | BrokenSkill {
  if (text.includes('\u0000')) return broken(reasonText('binary'))
  const meta = readSkillMeta(text, name)
  if (!meta.ok) return broken(meta.problem)
  return { kind: 'skill', meta: meta.meta, body: meta.body, ...where, digest: contentDigest(text) }
}

async function readSkill(options: ScanOptions, target: string, size: number | undefined, name: string, broken: (problem: string) => BrokenSkill, where: Pick<LoadedSkill, 'folder' | 'file' | 'source'>): Promise<LoadedSkill | BrokenSkill> {
  const read = await readBounded(options.fs, target, options.maxSkillBytes, size, options.signal)
  if (!read.ok) return broken(reasonText(read.reason, read.detail))
  return skillOf(read.text, name, broken, where)
}

const READ_REASONS: Readonly<Record<string, string>> = { FS_TOO_LARGE: 'too-large', FS_NOT_UTF8: 'not-utf8' }

/**
 * The skills of the plain sub-folders `names` of `source` (canonical directory `canonicalDir`)
 * from one batched read; `undefined` for a folder the batch cannot settle (a link, a swap at
 * open), which the caller probes one by one. Rethrows only cancellation.
 */
async function scanPlainFolders(source: SkillSource, names: readonly string[], canonicalDir: string, options: ScanOptions, readSmall: NonNullable<FileSystemPort['readSmallTexts']>): Promise<(LoadedSkill | BrokenSkill | null | undefined)[]> {
  const files = names.map((name) => child(child(source.dir, name), 'SKILL.md'))
  const startedAt = (options.now ?? Date.now)()
  const known = new Map<string, FsVersion>()
  names.forEach((name, index) => {
    const file = files[index] ?? ''
    const fact = options.cache?.get(file)
    // Only a settled fact of the same target and source may skip the read (see ScanOptions.cache).
    if (fact !== undefined && reusable(fact, child(child(canonicalDir, name), 'SKILL.md'), source, startedAt)) known.set(file, fact.version)
  })
  const outcomes = await readSmall(files, { maxBytes: options.maxSkillBytes, known, ...(options.signal === undefined ? {} : { signal: options.signal }) })
  return names.map((name, index) => {
    const file = files[index] ?? ''
    const outcome = outcomes[index]
    return outcome === undefined ? undefined : plainSkill(source, name, file, child(child(canonicalDir, name), 'SKILL.md'), outcome, options)
  })
}

/** One batched outcome as a skill; `null`: no skill there; `undefined`: probe it one by one. */
function plainSkill(source: SkillSource, name: string, file: string, target: string, outcome: FsSmallText, options: ScanOptions): LoadedSkill | BrokenSkill | null | undefined {
  const folder = child(source.dir, name)
  const broken = (problem: string): BrokenSkill => ({ kind: 'broken', file, folder, problem, source })
  switch (outcome.kind) {
    case 'absent':
      return null
    case 'not-file':
      // A directory or special file named SKILL.md is no skill; a link is the probe's to judge.
      return outcome.info.type === 'symlink' ? undefined : null
    case 'failed': {
      if (outcome.error.code === 'FS_CONFLICT') return undefined
      const reason = READ_REASONS[outcome.error.code]
      if (reason === undefined) return broken(reasonText('read-failed', outcome.error.message))
      // The size of a file refused before reading is named, as the one-by-one read names it.
      const size = outcome.info?.size
      return broken(reasonText(reason, reason === 'too-large' && size !== undefined ? `${size} bytes` : undefined))
    }
    case 'unchanged':
      return options.cache?.get(file)?.result
    case 'text': {
      if (options.policy.trustedRoots !== undefined && !isTrusted(options.policy.trustedRoots, target)) return broken(reasonText('escaping-link', target))
      const result = skillOf(outcome.text, name, broken, { folder, file, source })
      options.cache?.set(file, { target, version: outcome.info.version, changedAtMs: outcome.info.changedAtMs, result })
      return result
    }
    default: {
      const unknown: never = outcome
      return unknown
    }
  }
}

/** Every skill folder of `source` in name order; an absent or unlistable directory has none. */
export async function scanSource(source: SkillSource, options: ScanOptions): Promise<(LoadedSkill | BrokenSkill)[]> {
  let entries: { readonly name: string; readonly type: string }[]
  let canonicalDir: string
  try {
    // A missing directory or a file in its place fails the listing: no skills there. One resolve
    // for the directory (concurrently); a plain sub-folder's canonical path follows from it.
    const [listed, resolved] = await Promise.all([options.fs.listDir(source.dir, options.signal), options.fs.resolve(source.dir, { cwd: source.dir, ...(options.signal === undefined ? {} : { signal: options.signal }) })])
    canonicalDir = resolved.path
    entries = listed.filter((entry) => entry.type === 'directory' || entry.type === 'symlink')
  } catch (error) {
    // An unreadable skills directory contributes nothing now; the next scan tries again.
    if (options.signal?.aborted === true) throw error
    return []
  }
  // The folders are read concurrently (plain ones in one batch where the port has it); the result keeps name order.
  const folders = entries.filter(({ name }) => !name.startsWith('.'))
  const readSmall = options.fs.readSmallTexts?.bind(options.fs)
  const plain = readSmall === undefined ? [] : folders.filter((entry) => entry.type === 'directory').map((entry) => entry.name)
  const batched = readSmall === undefined || plain.length === 0 ? [] : await scanPlainFolders(source, plain, canonicalDir, options, readSmall)
  const settled = new Map(plain.map((name, index) => [name, batched[index]]))
  const skills = await Promise.all(
    folders.map(({ name, type }) => {
      const done = settled.get(name)
      if (done !== undefined) return Promise.resolve(done ?? undefined)
      return scanFolder(source, name, options, type === 'directory' ? join(canonicalDir, name) : undefined)
    }),
  )
  return skills.filter((skill) => skill !== undefined)
}
