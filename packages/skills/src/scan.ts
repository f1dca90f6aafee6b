/**
 * Scans one `skills` directory through the filesystem port: each sub-folder holding a `SKILL.md`
 * is a skill. The file is probed like an instruction file (a link is followed only into a trusted
 * root; FIFOs, devices and directories are never opened) and read with the same bounded read.
 * A folder without `SKILL.md` is no skill and is skipped quietly; a file that exists but cannot be
 * used is a broken skill with its problem. Rethrows only cancellation.
 */
import { join } from 'node:path'
import type { FileSystemPort } from '@dsh/contracts'
import { contentDigest, probeCandidate, readBounded, type LinkPolicy } from '@dsh/workspace-context'
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

const reasonText = (reason: string, detail?: string): string => `${UNAVAILABLE[reason] ?? reason}${detail === undefined ? '' : ` (${detail})`}`

/** Options of one scan. */
export interface ScanOptions {
  readonly fs: FileSystemPort
  readonly policy: LinkPolicy
  readonly maxSkillBytes: number
  readonly signal?: AbortSignal | undefined
}

/** Reads one skill folder `name` of `source`; `undefined` when it holds no SKILL.md. */
export async function scanFolder(source: SkillSource, name: string, options: ScanOptions): Promise<LoadedSkill | BrokenSkill | undefined> {
  const folder = join(source.dir, name)
  const file = join(folder, 'SKILL.md')
  const broken = (problem: string): BrokenSkill => ({ kind: 'broken', file, folder, problem, source })
  const probe = await probeCandidate(options.fs, file, 'SKILL.md', options.policy, options.signal)
  if (probe.state === 'absent') return undefined
  if (probe.state === 'unavailable') return broken(reasonText(probe.reason, probe.detail))
  const read = await readBounded(options.fs, probe.target, options.maxSkillBytes, probe.info.size, options.signal)
  if (!read.ok) return broken(reasonText(read.reason, read.detail))
  const meta = readSkillMeta(read.text, name)
  if (!meta.ok) return broken(meta.problem)
  return { kind: 'skill', meta: meta.meta, body: meta.body, folder, file, digest: contentDigest(read.text), source }
}

/** Every skill folder of `source` in name order; an absent or unlistable directory has none. */
export async function scanSource(source: SkillSource, options: ScanOptions): Promise<(LoadedSkill | BrokenSkill)[]> {
  let names: string[]
  try {
    const info = await options.fs.stat(source.dir, options.signal)
    if (info?.type !== 'directory') return []
    names = (await options.fs.listDir(source.dir, options.signal)).filter((entry) => entry.type === 'directory' || entry.type === 'symlink').map((entry) => entry.name)
  } catch (error) {
    // An unreadable skills directory contributes nothing now; the next scan tries again.
    if (options.signal?.aborted === true) throw error
    return []
  }
  const found: (LoadedSkill | BrokenSkill)[] = []
  for (const name of names) {
    if (name.startsWith('.')) continue
    const skill = await scanFolder(source, name, options)
    if (skill !== undefined) found.push(skill)
  }
  return found
}
