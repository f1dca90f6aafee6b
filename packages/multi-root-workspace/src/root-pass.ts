/**
 * One additional root's examination in a pre-step (seeds/002 decisions 1 and 4): the directories
 * examined are the root itself, every directory that already delivered a file, every directory
 * waiting for its delivery to land, and each touched path's parent with all its ancestors up to
 * the root. Each is examined on its own with workspace-context's discovery, pinned to the root
 * (links must stay inside it), so nothing outside the root — the primary root, `$DSH_HOME`, the
 * root's parents — is ever read here.
 *
 * Findings: files to offer (new, changed, or a retry of one the model has only part of),
 * withdrawals (a delivered file that the examination of its directory shows is gone; a directory
 * that could not be examined, or a file that exists but cannot be loaded, withdraws nothing) and
 * candidates that exist but cannot
 * be loaded (for the diagnostics).
 */
import { basename, join } from 'node:path'
import type { FileSystemPort } from '@dsh/contracts'
import { absOf, discover, type ResolvedConfig, type UnavailableReason, type VersionMemo } from '@dsh/workspace-context'
import { fileScope, filesOf, type DeliveredFile, type DeliveredState } from './delivered-state.ts'

/** A root as a pass sees it. */
export interface PassRoot {
  /** Canonical path (scope keys, reads). */
  readonly recordedPath: string
  /** Path as shown (display paths are built on it). */
  readonly path: string
}

/** A file offered to the model. */
export interface FileOffer {
  /** `set`: new; `replace`: changed; `retry`: unchanged, but the model has only part of it. */
  readonly kind: 'set' | 'replace' | 'retry'
  readonly scope: string
  /** Root-relative directory (`.` for the root). */
  readonly dir: string
  /** Absolute path as shown. */
  readonly path: string
  readonly digest: string
  readonly content: string
}

/** Inputs of {@link examineRoot}. */
export interface RootPassInput {
  readonly fs: FileSystemPort
  readonly discovery: ResolvedConfig
  readonly dshHome: string
  readonly root: PassRoot
  /** Root-relative directories to examine besides the root and the delivered ones. */
  readonly extraDirs: ReadonlySet<string>
  readonly delivered: DeliveredState
  readonly memo: VersionMemo
  readonly now: () => number
  readonly signal: AbortSignal
}

/** A candidate that exists but is not loaded (reported as a warning). */
export interface UnusableFile {
  /** Absolute path as shown. */
  readonly path: string
  readonly reason: UnavailableReason
  readonly detail?: string | undefined
}

/** What the examination found. */
export interface RootFindings {
  readonly offers: readonly FileOffer[]
  readonly withdrawals: readonly DeliveredFile[]
  readonly unusable: readonly UnusableFile[]
}

const displayOf = (root: PassRoot, dir: string, name: string): string => join(absOf(root.path, dir), name)

/** A slot of a directory whose examination was inconclusive, with the candidate it stopped at. */
interface Unsettled {
  readonly slot: string
  readonly name: string
}

/**
 * Whether `file` may still be there although it was not loaded: its slot's examination was
 * inconclusive at or before its own name (the directory could not be examined, the file itself
 * cannot be loaded, or an earlier candidate of its slot stopped the search). A candidate that was
 * skipped for another file's failure, or one in another slot, says nothing about it.
 */
function mayStillExist(file: DeliveredFile, unsettled: readonly Unsettled[], discovery: ResolvedConfig): boolean {
  const base = discovery.instructionFileCandidates
  const local = discovery.localInstructionFileCandidates.filter((name) => !base.includes(name))
  const list = discovery.candidatePolicy === 'all' ? [file.name] : base.includes(file.name) ? base : local
  const slot = discovery.candidatePolicy === 'all' ? `=${file.name}` : list === base ? 'base' : 'local'
  const own = list.indexOf(file.name)
  // A name that is no candidate any more (the settings changed) cannot be loaded whatever is there.
  if (own < 0) return false
  return unsettled.some((entry) => {
    if (entry.slot !== slot) return false
    const stoppedAt = list.indexOf(entry.name)
    return stoppedAt < 0 || stoppedAt <= own
  })
}

/** Examines one root. Rethrows only cancellation. */
export async function examineRoot(input: RootPassInput): Promise<RootFindings> {
  const { root, delivered } = input
  const known = filesOf(delivered, root.recordedPath)
  const dirs = new Set(['.', ...known.map((file) => file.dir), ...input.extraDirs])
  const byScope = new Map(known.map((file) => [file.scope, file]))
  const knownDigest = (_slot: string, relPath: string): string | undefined => {
    const slash = relPath.lastIndexOf('/')
    const file = byScope.get(fileScope(root.recordedPath, slash < 0 ? '.' : relPath.slice(0, slash), relPath.slice(slash + 1)))
    // A file the model has only part of is read again, so it can be sent whole when it fits.
    return file === undefined || file.truncated ? undefined : file.digest
  }
  const found = await discover(
    { config: input.discovery, root: root.recordedPath, dshHome: input.dshHome, trustedRoots: { fixed: [root.recordedPath], extra: () => [] } },
    { fs: input.fs, signal: input.signal, memo: input.memo, directoryVersions: input.discovery.directoryVersions, now: input.now, knownDigest },
    [...dirs].map((rel) => ({ rel, abs: absOf(root.recordedPath, rel) })),
    false,
  )
  const offers: FileOffer[] = []
  const unusable: UnusableFile[] = []
  const present = new Set<string>()
  const unsettled = new Map<string, Unsettled[]>()
  for (const observation of found.observations) {
    if (observation.scope.kind !== 'project') continue
    const dir = observation.scope.dir
    if (observation.state === 'unavailable') {
      unsettled.set(dir, [...(unsettled.get(dir) ?? []), { slot: observation.scope.slot, name: basename(observation.path) }])
      unusable.push({ path: join(root.path, observation.path), reason: observation.reason, detail: observation.detail })
    }
    if (observation.state !== 'present') continue
    const name = basename(observation.absPath)
    const scope = fileScope(root.recordedPath, dir, name)
    present.add(scope)
    const before = byScope.get(scope)
    const kind = before === undefined ? 'set' : before.digest !== observation.digest ? 'replace' : before.truncated ? 'retry' : undefined
    if (kind === undefined || observation.content === undefined) continue
    offers.push({ kind, scope, dir, path: displayOf(root, dir, name), digest: observation.digest, content: observation.content })
  }
  const withdrawals = known.filter((file) => found.examined.has(file.dir) && !present.has(file.scope) && !mayStillExist(file, unsettled.get(file.dir) ?? [], input.discovery))
  return { offers, withdrawals, unusable }
}
