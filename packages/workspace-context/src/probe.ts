/**
 * One candidate probe: three states (present / absent / unavailable), metadata only. The final
 * component is inspected with `lstat`; a link is followed with `resolve` + `stat` only when links
 * are followed at all. Under the trusted-roots policy the canonical path of every present
 * candidate (a link target, or a file reached through a linked parent directory) must lie inside
 * the trusted roots. Directories, FIFOs, sockets, devices and dangling links are confirmed
 * absences; a probe exception is "unavailable" and never becomes a removal. A caller that has just
 * resolved the parent directory (a scan of one directory's entries) may pass its canonical path:
 * a regular file's canonical path is then that directory's plus its name, with no resolve.
 */
import { basename, dirname, join } from 'node:path'
import type { FileSystemPort } from '@dsh/contracts'
import { rethrowIfAborted } from './abort.ts'
import { errorMessage } from './guards.ts'
import { isTrusted, type TrustedRoots } from './trusted-roots.ts'
import type { CandidateProbe } from './types.ts'

/** Link handling of one probe. */
export interface LinkPolicy {
  /** Follow a final-component link at all. */
  readonly followSymlinks: boolean
  /** Canonical roots a followed link must stay inside; `undefined` allows any target. */
  readonly trustedRoots: TrustedRoots | undefined
}

/** Probes `path` (named `name`). Rethrows only cancellation. */
export async function probeCandidate(fs: FileSystemPort, path: string, name: string, policy: LinkPolicy, signal?: AbortSignal, canonicalParent?: string): Promise<CandidateProbe> {
  try {
    const own = await fs.lstat(path, signal)
    if (own === undefined) return { state: 'absent', name, path, note: 'missing' }
    if (own.type === 'directory') return { state: 'absent', name, path, note: 'directory' }
    if (own.type === 'other') return { state: 'absent', name, path, note: 'special-file' }
    const resolveOptions = { cwd: dirname(path), ...(signal === undefined ? {} : { signal }) }
    if (own.type === 'file') {
      const info = { ...own, type: 'file' as const }
      if (policy.trustedRoots === undefined) return { state: 'present', name, path, target: path, info, viaLink: false }
      // A parent directory may itself be a link out of the project: check the canonical path.
      const real = canonicalParent === undefined ? (await fs.resolve(path, resolveOptions)).path : join(canonicalParent, basename(path))
      if (!isTrusted(policy.trustedRoots, real)) return { state: 'unavailable', name, path, reason: 'escaping-link', detail: real }
      return { state: 'present', name, path, target: real, info, viaLink: false }
    }
    if (!policy.followSymlinks) return { state: 'unavailable', name, path, reason: 'symlink-refused' }
    const target = await fs.resolve(path, resolveOptions)
    const info = await fs.stat(target.path, signal)
    if (info === undefined) return { state: 'absent', name, path, note: 'dangling-link' }
    if (info.type === 'directory') return { state: 'absent', name, path, note: 'directory' }
    if (info.type === 'other') return { state: 'absent', name, path, note: 'special-file' }
    if (policy.trustedRoots !== undefined && !isTrusted(policy.trustedRoots, target.path)) {
      return { state: 'unavailable', name, path, reason: 'escaping-link', detail: target.path }
    }
    return { state: 'present', name, path, target: target.path, info, viaLink: true }
  } catch (error) {
    // A failing lstat/resolve/stat (EACCES, ELOOP, EIO, a provider bug) says nothing about
    // whether the file exists: report "unavailable" so an already loaded scope is kept.
    rethrowIfAborted(error, signal)
    return { state: 'unavailable', name, path, reason: 'probe-failed', detail: errorMessage(error) }
  }
}
