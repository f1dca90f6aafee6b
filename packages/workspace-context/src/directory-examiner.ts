/**
 * Examines one directory: its own stat (a missing directory is a cheap, confirmed absence of every
 * candidate), its candidate probes, the winner of each slot and a bounded read of each winner
 * unless the version memo proves the model already has exactly that content.
 *
 * Slots: under the `first` policy the first existing base candidate and the first existing local
 * overlay; an unavailable winner makes its slot unavailable (no fall-through to the next name).
 * Under the `all` policy every candidate is its own slot and a later candidate whose trimmed
 * content repeats an earlier one in the same directory is dropped as a duplicate. Whether a later
 * candidate repeats an earlier one cannot be judged while the earlier one failed transiently (its
 * content is unknown), so from the first such slot on, every slot of the directory is unavailable
 * too (`sibling-unavailable`): the group keeps its visible state until it can be read again. A slot
 * refused for a definite reason loads nothing, so there is nothing to compare with: later slots
 * load normally.
 */
import type { FileSystemPort } from '@dsh/contracts'
import { rethrowIfAborted } from './abort.ts'
import { readBounded } from './bounded-read.ts'
import { BLANK_DIGEST, contentDigest, trimmedDigest } from './digest.ts'
import { probeDirectory } from './directory-probes.ts'
import type { LinkPolicy } from './probe.ts'
import type { ScopeRef } from './scope-key.ts'
import type { AbsentNote, CandidateProbe, ScopeObservation } from './types.ts'
import { isDefiniteReason } from './unavailable-reasons.ts'
import type { VersionMemo } from './version-memo.ts'

/** Shared settings of the directory examinations of one pass. */
export interface ExamineOptions {
  readonly fs: FileSystemPort
  readonly signal?: AbortSignal | undefined
  readonly maxSourceBytes: number
  readonly policy: 'first' | 'all'
  readonly link: LinkPolicy
  /** Version memo (reads); `undefined` disables caching. */
  readonly memo?: VersionMemo | undefined
  /** Use directory versions to skip candidate probes. */
  readonly directoryVersions: boolean
  /** Wall clock in epoch milliseconds (comparable with the provider's `changedAtMs`). */
  readonly now: () => number
  /** Digest the model already has for a scope at a path; lets an unchanged file skip its read. */
  readonly knownDigest?: ((scopeKey: string, path: string) => string | undefined) | undefined
  /** Files already examined in this pass, by identity (a file is read at most once, decision D9). */
  readonly claimed: Claims
  /** Probe every candidate (reports) rather than stopping at each list's winner. */
  readonly probeAll?: boolean
}

/** What a pass found for one file (by identity) the first time it examined it. */
export interface Claim {
  readonly digest: string
  readonly trimmedDigest: string
  readonly bytes: number
  /** The content, when this pass read it. */
  readonly content?: string | undefined
}

/** File identity → what the pass found for it first. */
export type Claims = Map<string, Claim>

/** One directory with its candidate lists and naming. */
export interface DirectorySpec {
  readonly abs: string
  readonly base: readonly string[]
  readonly local: readonly string[]
  /** Scope of a slot (`base`, `local` or `=<name>`). */
  readonly scopeOf: (slot: string) => ScopeRef
  /** Model-visible path of a candidate name. */
  readonly displayOf: (name: string) => string
}

/** Everything examining a directory found. */
export interface DirectoryExamination {
  readonly observations: readonly ScopeObservation[]
  /** Raw candidate probes (for reports). */
  readonly probes: readonly CandidateProbe[]
}

type Loaded = { readonly observation: ScopeObservation; readonly trimmed?: string }

/** Identity of a present candidate's file: the provider's node id, else its canonical target. */
export const fileIdentity = (probe: CandidateProbe & { state: 'present' }): string => probe.info.nodeId ?? probe.target

/** A present observation; one object shape for every present file (the hot path of a touch). */
function presentObservation(probe: CandidateProbe & { state: 'present' }, scope: ScopeRef, path: string, nodeId: string, fact: Claim): ScopeObservation {
  return { state: 'present', scope, path, absPath: probe.path, target: probe.target, nodeId, digest: fact.digest, trimmedDigest: fact.trimmedDigest, bytes: fact.bytes, content: fact.content, sameAs: undefined }
}

async function load(options: ExamineOptions, probe: CandidateProbe & { state: 'present' }, scope: ScopeRef, path: string, startedAt: number): Promise<Loaded> {
  const nodeId = fileIdentity(probe)
  const known = options.knownDigest?.(scope.key, path)
  const claim = options.claimed.get(nodeId)
  // The same file under a second path (a link, a hard link): read once per pass. Discovery decides
  // which path carries it (decision D9); in one directory under the `all` policy it is a duplicate.
  if (claim !== undefined && (claim.content !== undefined || claim.digest === known || claim.trimmedDigest === BLANK_DIGEST)) {
    return { observation: presentObservation(probe, scope, path, nodeId, claim), trimmed: claim.trimmedDigest }
  }
  const fact = options.memo?.file(probe.path, probe.info.version)
  // Skip the read when the model has this content, or when it is blank (never delivered, so its text is not needed).
  if (fact !== undefined && (known === fact.digest || fact.trimmedDigest === BLANK_DIGEST)) {
    const found: Claim = { digest: fact.digest, trimmedDigest: fact.trimmedDigest, bytes: fact.bytes, content: undefined }
    if (claim === undefined) options.claimed.set(nodeId, found)
    return { observation: presentObservation(probe, scope, path, nodeId, found), trimmed: fact.trimmedDigest }
  }
  const read = await readBounded(options.fs, probe.target, options.maxSourceBytes, probe.info.size, options.signal)
  if (!read.ok) {
    options.memo?.forgetFile(probe.path)
    return { observation: { state: 'unavailable', scope, reason: read.reason, path, detail: read.detail } }
  }
  const digests = { digest: contentDigest(read.text), trimmedDigest: trimmedDigest(read.text), bytes: read.bytes }
  options.memo?.recordFile(probe.path, probe.info.version, digests, { startedAt, finishedAt: options.now(), changedAtMs: probe.info.changedAtMs })
  const found: Claim = { digest: digests.digest, trimmedDigest: digests.trimmedDigest, bytes: read.bytes, content: read.text }
  options.claimed.set(nodeId, found)
  return { observation: presentObservation(probe, scope, path, nodeId, found), trimmed: digests.trimmedDigest }
}

function settled(scope: ScopeRef, winner: CandidateProbe | undefined, spec: DirectorySpec, fallbackNote: AbsentNote): ScopeObservation | undefined {
  if (winner === undefined) return { state: 'absent', scope, note: fallbackNote }
  if (winner.state === 'unavailable') return { state: 'unavailable', scope, reason: winner.reason, path: spec.displayOf(winner.name), detail: winner.detail }
  return undefined
}

/** Examines `spec`. Rethrows only cancellation. */
export async function examineDirectory(options: ExamineOptions, spec: DirectorySpec): Promise<DirectoryExamination> {
  const local = spec.local.filter((name) => !spec.base.includes(name))
  const slots = options.policy === 'first' ? [{ slot: 'base', names: spec.base }, { slot: 'local', names: local }].filter((s) => s.names.length > 0) : [...spec.base, ...local].map((name) => ({ slot: `=${name}`, names: [name] }))
  // Taken before anything is stat'ed: the version memo judges every fact of this examination by it.
  const startedAt = options.now()
  let info
  try {
    info = await options.fs.stat(spec.abs, options.signal)
  } catch (error) {
    // The directory may exist; without its listing nothing can be concluded for any slot.
    rethrowIfAborted(error, options.signal)
    return { observations: slots.map(({ slot }) => ({ state: 'unavailable', scope: spec.scopeOf(slot), reason: 'probe-failed', path: spec.displayOf(slot.startsWith('=') ? slot.slice(1) : (spec.base[0] ?? '')) })), probes: [] }
  }
  if (info?.type !== 'directory') return { observations: slots.map(({ slot }) => ({ state: 'absent', scope: spec.scopeOf(slot), note: 'missing' })), probes: [] }
  const probes = await probeDirectory({
    fs: options.fs,
    abs: spec.abs,
    version: info.version,
    lists: [spec.base, local],
    firstOnly: options.policy === 'first' && options.probeAll !== true,
    link: options.link,
    memo: options.directoryVersions ? options.memo : undefined,
    startedAt,
    changedAtMs: info.changedAtMs,
    now: options.now,
    signal: options.signal,
  })
  const observations: ScopeObservation[] = []
  const keptTrimmed = new Set<string>()
  let blocking: string | undefined
  for (const { slot, names } of slots) {
    const scope = spec.scopeOf(slot)
    if (blocking !== undefined) {
      observations.push({ state: 'unavailable', scope, reason: 'sibling-unavailable', path: spec.displayOf(names[0] ?? ''), detail: `waiting for ${blocking}` })
      continue
    }
    const listProbes = names.map((name) => probes.find((p) => p.name === name)).filter((p): p is CandidateProbe => p !== undefined)
    const winner = listProbes.find((p) => p.state !== 'absent')
    const only = listProbes.length === 1 ? listProbes[0] : undefined
    const early = settled(scope, winner, spec, only?.state === 'absent' ? only.note : 'missing')
    if (early !== undefined || winner?.state !== 'present') {
      if (early !== undefined) observations.push(early)
      if (options.policy === 'all' && early?.state === 'unavailable' && !isDefiniteReason(early.reason)) blocking = early.path
      continue
    }
    const loaded = await load(options, winner, scope, spec.displayOf(winner.name), startedAt)
    if (options.policy === 'all' && loaded.observation.state === 'unavailable' && !isDefiniteReason(loaded.observation.reason)) blocking = loaded.observation.path
    if (options.policy === 'all' && loaded.trimmed !== undefined && loaded.observation.state === 'present') {
      if (keptTrimmed.has(loaded.trimmed)) {
        observations.push({ state: 'absent', scope, note: 'duplicate', path: loaded.observation.path })
        continue
      }
      keptTrimmed.add(loaded.trimmed)
    }
    observations.push(loaded.observation)
  }
  return { observations, probes }
}
