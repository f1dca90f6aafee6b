/**
 * Reconciliation: compares what a pass observed with the effective state and lists the
 * transitions to render, in observation order (broad to specific).
 *
 * - present, not loaded (or tombstoned)      → `set`
 * - present, loaded with another path/digest → `replace` (naming the previous path on a switch)
 * - present, loaded identically              → nothing (duplicate suppression)
 * - absent, loaded                           → `remove`
 * - unavailable for a transient reason       → nothing: a failed probe or read is never a removal
 * - unavailable for a definite reason (not UTF-8, NUL bytes, too large, a link refused by policy)
 *   while loaded from that path with known content → `outdated`: it loaded under the same settings,
 *   so it changed since. Persisted without a digest, so it is said once and the next loadable
 *   content is sent as an update. Never a removal.
 * - unavailable for a definite reason while loaded, when the settings changed since the scope was
 *   recorded (`settingsChanged`) → `remove`: the file need not have changed, the current settings
 *   exclude it. Never an outdated notice.
 *
 * A baseline file left out by the budget stays out while its digest is unchanged (and is removed
 * if it is still visible). A loaded scope whose directory was examined but which the current
 * slot scheme no longer produces (for example after a policy change) is removed.
 */
import { decodeScope, specificity, type ScopeRef } from './scope-key.ts'
import { isBlank } from './digest.ts'
import type { ChangeItem, ScopeObservation } from './types.ts'
import { isDefiniteReason } from './unavailable-reasons.ts'
import { isLoaded, type EffectiveEntry } from './visible-state.ts'

/** A top-level `read` that showed a whole file: its result is the delivery of that content (decision D9). */
export interface ReadDelivery {
  readonly callId: string
  /** Canonical absolute path the read touched. */
  readonly path: string
  /** SHA-256 of the exact text it returned in full. */
  readonly digest: string
}

/** Inputs of one reconciliation. */
export interface ReconcileInput {
  readonly observations: readonly ScopeObservation[]
  readonly state: ReadonlyMap<string, EffectiveEntry>
  /** Baseline scopes left out by the budget, with the digest that was left out. */
  readonly omitted: ReadonlyMap<string, string>
  /** Root-relative keys of the project directories examined in this pass. */
  readonly examinedDirs: ReadonlySet<string>
  /** Whether the user-global scope was examined. */
  readonly examinedUserGlobal: boolean
  /**
   * The loaded scopes were recorded under other settings (another baseline identity): a definite
   * refusal removes the scope instead of flagging it as outdated. Default `false`.
   */
  readonly settingsChanged?: boolean | undefined
  /** The read that triggered this pass, when it showed a whole file. */
  readonly read?: ReadDelivery | undefined
}

/** Transitions to render, plus omitted-baseline entries that no longer describe the file. */
export interface ReconcileResult {
  readonly items: readonly ChangeItem[]
  readonly staleOmissions: readonly string[]
}

const removal = (scope: ScopeRef, entry: EffectiveEntry): ChangeItem => ({ action: 'remove', scope, path: entry.path })

/** Whether `scope` is loaded with its own copy of the content of `digest` (a same-file line can name it). */
function inEffect(state: ReadonlyMap<string, EffectiveEntry>, scope: string, digest: string): boolean {
  const entry = state.get(scope)
  return isLoaded(entry) && entry.sameAs === undefined && !entry.outdated && entry.digest === digest
}

/** The call id of `read` when it showed exactly this file's current content in full. */
function readBy(read: ReadDelivery | undefined, observation: ScopeObservation & { state: 'present' }): string | undefined {
  if (read === undefined || read.digest !== observation.digest) return undefined
  return read.path === observation.target || read.path === observation.absPath ? read.callId : undefined
}

/** Computes the transitions that bring the model's view in line with the observations. */
export function reconcile(input: ReconcileInput): ReconcileResult {
  const items: ChangeItem[] = []
  const staleOmissions: string[] = []
  const observed = new Set<string>()
  for (const observation of input.observations) {
    const { scope } = observation
    observed.add(scope.key)
    const entry = input.state.get(scope.key)
    if (observation.state === 'unavailable') {
      const { reason, path } = observation
      if (!isDefiniteReason(reason) || !isLoaded(entry)) continue
      if (input.settingsChanged === true) items.push(removal(scope, entry))
      else if (entry.path === path && entry.digest !== undefined) items.push({ action: 'outdated', scope, path, reason })
      continue
    }
    if (observation.state === 'absent') {
      if (isLoaded(entry)) items.push(removal(scope, entry))
      continue
    }
    if (isBlank(observation)) {
      // An empty file has nothing to deliver: never sent; one the model had text from no longer applies.
      if (isLoaded(entry)) items.push(removal(scope, entry))
      continue
    }
    const omittedDigest = input.omitted.get(scope.key)
    if (omittedDigest !== undefined) {
      if (omittedDigest === observation.digest) {
        if (isLoaded(entry)) items.push(removal(scope, entry))
        continue
      }
      staleOmissions.push(scope.key)
    }
    const unchanged = isLoaded(entry) && entry.path === observation.path
    if (unchanged && observation.sameAs !== undefined && entry.sameAs?.scope === observation.sameAs.scope.key) continue
    if (unchanged && entry.sameAs === undefined && entry.digest === observation.digest) continue
    const read = readBy(input.read, observation)
    if (observation.content === undefined && observation.sameAs === undefined && read === undefined) continue
    const base = {
      scope,
      path: observation.path,
      content: observation.content,
      digest: observation.digest,
      ...(observation.sameAs === undefined ? {} : { sameAs: { ...observation.sameAs, inEffect: inEffect(input.state, observation.sameAs.scope.key, observation.digest) } }),
      ...(read === undefined ? {} : { readCallId: read }),
    }
    items.push(isLoaded(entry) ? { action: 'replace', ...base, ...(entry.path === observation.path ? {} : { previousPath: entry.path }) } : { action: 'set', ...base })
  }
  for (const [key, entry] of input.state) {
    if (observed.has(key) || !isLoaded(entry)) continue
    const scope = decodeScope(key)
    if (scope === undefined) continue
    const examined = scope.kind === 'user-global' ? input.examinedUserGlobal : input.examinedDirs.has(scope.dir)
    if (examined) items.push(removal(scope, entry))
  }
  return { items: items.toSorted((a, b) => specificity(a.scope) - specificity(b.scope)), staleOmissions }
}
