/**
 * One reconciliation pass. Modes:
 * - `initial` (first entering pre-step of a loop instance): a compatible visible baseline stays and
 *   every baseline and loaded scope is reconciled against disk (resume, remount); an incompatible
 *   one is superseded by one complete baseline, which keeps (and names) earlier baseline files that
 *   could not be read now for a transient reason instead of removing them, and removes those the
 *   new settings refuse for a definite reason; without a visible baseline a baseline is composed.
 *   When the identity differs from the one the visible scopes were recorded under, no outdated
 *   notice is given: a definite refusal is a removal (the settings changed, not the file). When
 *   the project root differs (scope keys are relative to it), those scopes are retired in the new
 *   baseline, never re-probed under the new root.
 * - `restore` (a later pre-step after compaction shadowed the baseline): one baseline.
 * - `touch` (after a successful read/write/edit): the root-to-cwd chain, the directories down to
 *   each touched file and every loaded scope are reconciled into one change batch; directories
 *   an earlier touch of the same step examined come from the step's shared record when given.
 * - `recheck` (the first entering pre-step after a step in which a shell tool ran, decision D8):
 *   only the directories of loaded scopes (and the user-global file when loaded) are examined,
 *   which for unchanged files costs one stat per directory and per loaded file.
 * A baseline that does not supersede leaves out files the conversation still shows unchanged
 * (naming them), and is not sent at all when that leaves nothing to say.
 */
import type { FileSystemPort, InstructionChange, SessionView, UserMessage } from '@dsh/contracts'
import { identityProjectRoot, type ResolvedConfig } from './config.ts'
import { descendantDirs, type DirRef } from './directories.ts'
import { directoryKey, discover, settledProjectRecords, userGlobalKey } from './discovery.ts'
import type { InstanceState } from './instance.ts'
import { instructionMessage } from './message.ts'
import { reconcile, type ReadDelivery } from './reconcile.ts'
import { renderBaseline, renderChangeBatch } from './render.ts'
import { decodeScope, userGlobalScope } from './scope-key.ts'
import type { SettledExamination } from './settled-examinations.ts'
import type { SharedExaminations } from './step-share.ts'
import type { SurfaceFold } from './surface-fold.ts'
import { isBlank } from './digest.ts'
import type { LoadedFile, ScopeObservation, UnavailableReason } from './types.ts'
import { isDefiniteReason } from './unavailable-reasons.ts'
import type { VersionMemo } from './version-memo.ts'
import { applyMessage, deriveVisibleState, isLoaded, latestRecordedIdentity, type EffectiveEntry, type VisibleState } from './visible-state.ts'

/** Everything a pass needs. */
export interface PassContext {
  readonly config: ResolvedConfig
  readonly plugin: string
  readonly fs: FileSystemPort
  readonly session: SessionView
  readonly instance: InstanceState
  readonly memo: VersionMemo
  /** Wall clock in epoch milliseconds (comparable with file timestamps). */
  readonly now: () => number
  /** Examinations shared by the touches of the open step (touch passes only). */
  readonly shared?: SharedExaminations | undefined
  /** The touching `read` showed a whole file: its result delivers that content (touch passes only). */
  readonly read?: ReadDelivery | undefined
  /** Messages that count as seen although not yet on the surface (pending, claimed). */
  readonly overlays: readonly UserMessage[]
  /** The session's incremental fold of its surface (absent: folded from the start). */
  readonly fold?: SurfaceFold | undefined
  /**
   * Identity of the settings the latest completed first pass of this session ran under, when the
   * plugin instance remembers it (`examined-settings.ts`): it names the settings the visible scopes were
   * last examined under better than the logged identity, which a pass with nothing to say does not
   * update.
   */
  readonly examinedUnder?: string | undefined
  /** Told about every candidate that exists but could not be used. */
  readonly onUnavailable?: ((path: string, reason: UnavailableReason, detail: string | undefined) => void) | undefined
  readonly signal?: AbortSignal | undefined
}

/** Pass modes. */
export type PassMode = 'initial' | 'restore' | 'touch' | 'recheck'

const composesBaseline = (mode: PassMode): boolean => mode === 'initial' || mode === 'restore'

/** The directories a touch of `touched` examines besides the ones every touch does. */
const touchedDirs = (ctx: PassContext, touched: readonly string[]): DirRef[] => touched.flatMap((path) => descendantDirs(ctx.instance.project.root, ctx.instance.cwd, path))

function passDirs(ctx: PassContext, mode: PassMode, state: VisibleState, touched: readonly string[], rootChanged: boolean): { chain: readonly DirRef[]; base: DirRef[]; all: DirRef[] } {
  const { dirs } = ctx.instance
  const chain = dirs.chain()
  const all = [...chain]
  if (mode === 'restore' || rootChanged) return { chain, base: all, all }
  // A re-check after a shell step examines only the directories of loaded scopes (decision D8).
  const loaded: DirRef[] = []
  state.scopes.forEach((entry, key) => {
    const dir = isLoaded(entry) ? dirs.ofScope(key) : undefined
    if (dir !== undefined) loaded.push(dir)
  })
  if (mode === 'recheck') return { chain, base: loaded, all: loaded }
  all.push(...loaded)
  const base = [...all]
  all.push(...touchedDirs(ctx, touched))
  return { chain, base, all }
}

/**
 * The state a quiet touch is judged under (`quiet-passes.ts`): the surface fold's version, the
 * version memo's generation and the budget omissions; `undefined` when pending messages count too.
 */
function quietState(ctx: PassContext): string | undefined {
  if (ctx.overlays.length > 0 || ctx.fold === undefined) return undefined
  const omitted = [...ctx.instance.omitted].map(([scope, digest]) => `${scope}=${digest}`).join('\u0000')
  return `${ctx.fold.version(ctx.session)}|${ctx.memo.generation}|${omitted}`
}

function alreadyVisible(state: VisibleState, change: InstructionChange): boolean {
  const entry = state.scopes.get(change.scope)
  return isLoaded(entry) && entry.path === change.path && entry.digest === change.digest
}

/**
 * Identity the visible scopes were recorded under: the visible baseline's, else that of the latest
 * logged message recording one (a baseline or a change batch); `undefined` when none does.
 */
const recordedIdentity = (ctx: PassContext, state: VisibleState): string | undefined => state.baseline?.identity ?? latestRecordedIdentity(ctx.session, ctx.plugin)

interface BaselineInput {
  readonly state: VisibleState
  /** Present baseline files, broad to specific. */
  readonly files: readonly LoadedFile[]
  /** Scopes whose observation in this pass is unavailable for a transient reason (kept as they are). */
  readonly transient: ReadonlySet<string>
  /** Whether a scope belongs to the baseline (the user-global file and the root-to-cwd chain). */
  readonly isBaselineScope: (key: string) => boolean
  readonly rootChanged: boolean
}

function composeBaseline(ctx: PassContext, mode: PassMode, input: BaselineInput): UserMessage | undefined {
  const { instance, config } = ctx
  const { state, files, transient, rootChanged } = input
  // A superseding baseline answers for every scope of the earlier baseline and every baseline scope,
  // also one whose latest change came from a change batch (an update, an outdated notice).
  const covered = (scope: string, entry: EffectiveEntry): boolean => entry.fromBaseline || input.isBaselineScope(scope)
  const visible = state.baseline
  const compatible = visible !== undefined && visible.identity === instance.identity
  const superseding = mode === 'initial' && visible !== undefined && !compatible
  if (mode === 'initial' && compatible) {
    // Only the budget's verdict on the complete baseline is needed (omitted files stay out).
    recordOmitted(instance, renderBaseline(files, config.maxBytes, { maxFileShare: config.maxFileShare }).omitted)
    return undefined
  }
  const removals: InstructionChange[] = []
  const retired: string[] = []
  const stillInEffect: string[] = []
  const rendering = new Set(files.map((file) => file.scope.key))
  for (const [scope, entry] of state.scopes) {
    if (!isLoaded(entry)) continue
    if (rootChanged) {
      // Keys are relative to the previous root: every earlier scope is retired, none re-probed.
      removals.push({ action: 'remove', scope, path: entry.path })
      if (!entry.fromBaseline) retired.push(entry.path)
    } else if (superseding && covered(scope, entry) && !rendering.has(scope) && transient.has(scope)) {
      // A file that could not be read now keeps its earlier state: never a removal (property d).
      // One refused for a definite reason (the new settings exclude it) is removed below.
      stillInEffect.push(entry.path)
    }
  }
  // Outside a superseding baseline, files the conversation still shows unchanged are not repeated.
  const shown = superseding || rootChanged ? [] : files.filter((file) => alreadyVisible(state, { action: 'set', scope: file.scope.key, path: file.path, digest: file.digest }))
  // A restated baseline cannot lean on what it supersedes: a same-file line needs its file in the message.
  const sent = files.filter((file) => !shown.includes(file)).map((file) => (file.sameAs !== undefined && (superseding || rootChanged) ? { ...file, sameAs: { ...file.sameAs, inEffect: false } } : file))
  if (!superseding && sent.length === 0 && retired.length === 0) {
    recordOmitted(instance, [])
    return undefined
  }
  const notes = { stillInEffect, retired, shownEarlier: shown.map((file) => file.path) }
  const rendered = renderBaseline(sent, config.maxBytes, { superseding, notes, maxFileShare: config.maxFileShare })
  recordOmitted(instance, rendered.omitted)
  if (rendered.text === '') return undefined
  const kept = new Set(rendered.changes.map((change) => change.scope))
  if (superseding) {
    for (const [scope, entry] of state.scopes) {
      if (!rootChanged && isLoaded(entry) && covered(scope, entry) && !kept.has(scope) && !transient.has(scope)) removals.push({ action: 'remove', scope, path: entry.path })
    }
  }
  return instructionMessage({ plugin: ctx.plugin, text: rendered.text, changes: [...removals, ...rendered.changes], baselineIdentity: instance.identity })
}

/** A present baseline observation as a file to render (a same-file line names a scope the model still has unchanged). */
function loadedFile(state: VisibleState, o: ScopeObservation & { state: 'present' }, content: string): LoadedFile {
  const file = { scope: o.scope, path: o.path, content, digest: o.digest }
  if (o.sameAs === undefined) return file
  const other = state.scopes.get(o.sameAs.scope.key)
  return { ...file, sameAs: { ...o.sameAs, inEffect: isLoaded(other) && other.sameAs === undefined && !other.outdated && other.digest === o.digest } }
}

function recordOmitted(instance: InstanceState, omitted: readonly LoadedFile[]): void {
  instance.omitted.clear()
  for (const file of omitted) instance.omitted.set(file.scope.key, file.digest)
}

/** Runs one pass and returns the messages to deliver (baseline first), possibly none. */
export async function runPass(ctx: PassContext, mode: PassMode, touched: readonly string[] = []): Promise<UserMessage[]> {
  const { instance, config } = ctx
  // The extra trusted roots are asked for only when a probe needs them (`trusted-roots.ts`).
  const plan = { config, root: instance.project.root, dshHome: instance.dshHome, trustedRoots: instance.trustedRoots }
  const quiet = mode === 'touch' ? quietState(ctx) : undefined
  let checked: ReadonlyMap<SettledExamination, boolean> | undefined
  if (quiet !== undefined) {
    const verdict = await instance.quiet.quiet({ state: quiet, extra: touchedDirs(ctx, touched), keyOf: directoryKey, settledOf: settledProjectRecords(plan, ctx.memo), globalKey: userGlobalKey(instance.dshHome), read: ctx.read, shared: ctx.shared, fs: ctx.fs, signal: ctx.signal })
    if (verdict.quiet) return []
    checked = verdict.checked
  }
  const state = deriveVisibleState(ctx.session, ctx.plugin, ctx.overlays, ctx.fold)
  const recorded = mode === 'initial' ? recordedIdentity(ctx, state) : undefined
  // The visible scopes were last examined under other settings (per the process's record of the
  // latest first pass, which may have logged nothing, else per the logged identity): this is the
  // first pass under these settings and a definite refusal says nothing about the file. After it,
  // a file that becomes unloadable changed: an outdated notice.
  const examined = mode === 'initial' ? (ctx.examinedUnder ?? recorded) : undefined
  const settingsChanged = examined !== undefined && examined !== instance.identity
  // Their root-relative keys name other directories now.
  const rootChanged = recorded !== undefined && identityProjectRoot(recorded) !== identityProjectRoot(instance.identity)
  const { chain, base, all } = passDirs(ctx, mode, state, touched, rootChanged)
  const chainKeys = new Set(chain.map((dir) => dir.rel))
  const isBaselineScope = (key: string): boolean => {
    const scope = decodeScope(key)
    return scope !== undefined && (scope.kind === 'user-global' || chainKeys.has(scope.dir))
  }
  const knownDigest = (key: string, path: string): string | undefined => {
    if (composesBaseline(mode) && isBaselineScope(key)) return undefined
    const entry = state.scopes.get(key)
    // A same-file entry has no content of its own: the file must be read if it becomes a file of its own.
    return isLoaded(entry) && entry.path === path && entry.sameAs === undefined ? entry.digest : instance.omitted.get(key)
  }
  const shared = mode === 'touch' ? ctx.shared : undefined
  const holds = (key: string, path: string, digest: string): boolean => {
    const entry = state.scopes.get(key)
    return isLoaded(entry) && entry.path === path && entry.sameAs === undefined && !entry.outdated && entry.digest === digest
  }
  const pass = { fs: ctx.fs, signal: ctx.signal, memo: ctx.memo, directoryVersions: config.directoryVersions, now: ctx.now, knownDigest, shared, holds, checked }
  // A re-check examines the user-global file only when it is loaded.
  const userGlobal = mode !== 'recheck' || isLoaded(state.scopes.get(userGlobalScope().key))
  const found = await discover(plan, pass, all, userGlobal)
  for (const o of found.observations) if (o.state === 'unavailable') ctx.onUnavailable?.(o.path, o.reason, o.detail)
  const messages: UserMessage[] = []
  if (composesBaseline(mode)) {
    const files: LoadedFile[] = []
    const transient = new Set<string>()
    for (const o of found.observations) {
      if (o.state === 'present' && o.content !== undefined && !isBlank(o) && isBaselineScope(o.scope.key)) files.push(loadedFile(state, o, o.content))
      if (o.state === 'unavailable' && !isDefiniteReason(o.reason)) transient.add(o.scope.key)
    }
    const baseline = composeBaseline(ctx, mode, { state, files, transient, isBaselineScope, rootChanged })
    if (baseline !== undefined) {
      messages.push(baseline)
      applyMessage(state, baseline, ctx.plugin)
    }
    if (mode === 'restore') return messages
  }
  const read = mode === 'touch' ? ctx.read : undefined
  const result = reconcile({ observations: found.observations, state: state.scopes, omitted: instance.omitted, examinedDirs: found.examined, examinedUserGlobal: userGlobal, settingsChanged, read })
  for (const key of result.staleOmissions) instance.omitted.delete(key)
  if (quiet !== undefined && result.items.length === 0 && result.staleOmissions.length === 0 && !found.sameFiles && found.settled.size === found.directories) {
    instance.quiet.remember({ state: quiet, base, records: found.settled })
  }
  const batch = renderChangeBatch(result.items, config.maxBytes, { maxFileShare: config.maxFileShare })
  if (batch.changes.length > 0) messages.push(instructionMessage({ plugin: ctx.plugin, text: batch.text, changes: batch.changes, identity: instance.identity }))
  return messages
}
