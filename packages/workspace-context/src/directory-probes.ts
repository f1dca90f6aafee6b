/**
 * Candidate probes of one directory, accelerated by directory versions: when the directory's own
 * version is unchanged (and the cached fact is trusted, see `version-memo.ts`), the earlier results stand and only the
 * present candidates are re-stat'ed (an in-place edit does not change the directory), plus any
 * dangling link or unavailable entry (a link target can appear elsewhere without touching this
 * directory). A present candidate that is a link is probed in full again (resolve, stat and the
 * trusted-roots check): a link elsewhere on its target path can be retargeted or swapped for
 * one that leaves the trusted roots without touching this directory, so its cached target proves
 * nothing. When the target moved, the file fact of the
 * candidate is forgotten. Anything surprising falls back to a full probe.
 */
import { join, sep } from 'node:path'
import type { FileSystemPort, FsVersion } from '@dsh/contracts'
import { rethrowIfAborted } from './abort.ts'
import { isPlainPath } from './plain-paths.ts'
import { probeCandidate, type LinkPolicy } from './probe.ts'
import type { CandidateProbe } from './types.ts'
import type { VersionMemo } from './version-memo.ts'

/** Inputs of a directory probe. */
export interface DirectoryProbeInput {
  readonly fs: FileSystemPort
  readonly abs: string
  readonly version: FsVersion
  /** Candidate lists, each in precedence order. */
  readonly lists: readonly (readonly string[])[]
  /** Stop each list at its first non-absent candidate. */
  readonly firstOnly: boolean
  readonly link: LinkPolicy
  readonly memo: VersionMemo | undefined
  /** Clock reading taken before the directory was stat'ed. */
  readonly startedAt: number
  /** The directory's `changedAtMs`, when the provider reports it. */
  readonly changedAtMs?: number | undefined
  readonly now: () => number
  readonly signal?: AbortSignal | undefined
}

/** Path of candidate `name` (a plain file name) in directory `abs`. */
const childPath = (abs: string, name: string): string => (isPlainPath(abs) ? (abs === sep ? `${sep}${name}` : `${abs}${sep}${name}`) : join(abs, name))

async function fullProbe(input: DirectoryProbeInput): Promise<CandidateProbe[]> {
  const probes: CandidateProbe[] = []
  for (const list of input.lists) {
    for (const name of list) {
      const probe = await probeCandidate(input.fs, childPath(input.abs, name), name, input.link, input.signal)
      probes.push(probe)
      if (input.firstOnly && probe.state !== 'absent') break
    }
  }
  return probes
}

const volatile = (probe: CandidateProbe): boolean => probe.state === 'unavailable' || (probe.state === 'absent' && probe.note === 'dangling-link')

/** A present candidate whose content is reached through a link (its own, or a linked parent). */
const linked = (probe: CandidateProbe): boolean => probe.state === 'present' && (probe.viaLink || probe.target !== probe.path)

/** Re-checks a settled fact; `undefined` when it no longer holds. */
async function recheck(input: DirectoryProbeInput, cached: readonly CandidateProbe[]): Promise<CandidateProbe[] | undefined> {
  const probes: CandidateProbe[] = []
  for (const probe of cached) {
    if (volatile(probe) || linked(probe)) {
      const fresh = await probeCandidate(input.fs, probe.path, probe.name, input.link, input.signal)
      if (probe.state === 'present' && (fresh.state !== 'present' || fresh.target !== probe.target)) input.memo?.forgetFile(probe.path)
      if (fresh.state !== probe.state) return undefined
      probes.push(fresh)
    } else if (probe.state === 'present') {
      try {
        const info = await input.fs.stat(probe.path, input.signal)
        if (info?.type !== 'file') return undefined
        probes.push({ ...probe, info })
      } catch (error) {
        // The file may still be there; a full probe decides (and reports it unavailable).
        rethrowIfAborted(error, input.signal)
        return undefined
      }
    } else {
      probes.push(probe)
    }
  }
  return probes
}

/** Probes the candidates of a directory whose own version is `input.version`. */
export async function probeDirectory(input: DirectoryProbeInput): Promise<CandidateProbe[]> {
  const fact = input.memo?.directory(input.abs, input.version)
  const reused = fact === undefined ? undefined : await recheck(input, fact.probes)
  const probes = reused ?? (await fullProbe(input))
  input.memo?.recordDirectory(input.abs, input.version, probes, { startedAt: input.startedAt, finishedAt: input.now(), changedAtMs: input.changedAtMs })
  return probes
}
