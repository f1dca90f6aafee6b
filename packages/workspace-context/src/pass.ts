/**
 * One reconciliation pass. Modes:
 * - `initial` (first entering pre-step of a loop instance): a compatible visible baseline stays and
 *   every baseline and loaded scope is reconciled against disk (resume, remount); an incompatible
 *   one is superseded by one complete baseline; without a visible baseline a complete baseline is
 *   composed (unless every file in it is already visible unchanged).
 * - `restore` (a later pre-step after compaction shadowed the baseline): one complete baseline.
 * - `touch` (after a successful read/write/edit): the root-to-cwd chain, the directories down to
 *   each touched file and every loaded scope are reconciled into one change batch; directories
 *   an earlier touch of the same step examined come from the step's shared record when given.
 */
import type { FileSystemPort, InstructionChange, SessionView, UserMessage } from '@dsh/contracts'
import type { ResolvedConfig } from './config.ts'
import { absOf, chainDirs, descendantDirs, type DirRef } from './directories.ts'
import { discover } from './discovery.ts'
import type { InstanceState } from './instance.ts'
import { instructionMessage } from './message.ts'
import { reconcile } from './reconcile.ts'
import { renderBaseline, renderChangeBatch } from './render.ts'
import { decodeScope } from './scope-key.ts'
import type { SharedExaminations } from './step-share.ts'
import type { LoadedFile } from './types.ts'
import type { VersionMemo } from './version-memo.ts'
import { applyMessage, deriveVisibleState, isLoaded, type VisibleState } from './visible-state.ts'

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
  /** Messages that count as seen although not yet on the surface (pending, claimed). */
  readonly overlays: readonly UserMessage[]
  /** Told about every candidate that exists but could not be used. */
  readonly onUnavailable?: ((path: string, reason: string) => void) | undefined
  readonly signal?: AbortSignal | undefined
}

/** Pass modes. */
export type PassMode = 'initial' | 'restore' | 'touch'

function passDirs(ctx: PassContext, mode: PassMode, state: VisibleState, touched: readonly string[]): { chain: DirRef[]; all: DirRef[] } {
  const { root } = ctx.instance.project
  const chain = chainDirs(root, ctx.instance.cwd)
  const all = [...chain]
  if (mode === 'restore') return { chain, all }
  for (const [key, entry] of state.scopes) {
    const scope = isLoaded(entry) ? decodeScope(key) : undefined
    if (scope?.kind === 'project') all.push({ abs: absOf(root, scope.dir), rel: scope.dir })
  }
  for (const path of touched) all.push(...descendantDirs(root, ctx.instance.cwd, path))
  return { chain, all }
}

function alreadyVisible(state: VisibleState, change: InstructionChange): boolean {
  const entry = state.scopes.get(change.scope)
  return isLoaded(entry) && entry.path === change.path && entry.digest === change.digest
}

function composeBaseline(ctx: PassContext, mode: PassMode, state: VisibleState, files: readonly LoadedFile[]): UserMessage | undefined {
  const { instance, config } = ctx
  const visible = state.baseline
  const compatible = visible !== undefined && visible.identity === instance.identity
  const superseding = mode === 'initial' && visible !== undefined && !compatible
  const rendered = renderBaseline(files, config.maxBytes, superseding)
  instance.omitted.clear()
  for (const file of rendered.omitted) instance.omitted.set(file.scope.key, file.digest)
  if (mode === 'initial' && compatible) return undefined
  if (rendered.text === '') return undefined
  let changes: readonly InstructionChange[] = rendered.changes
  if (superseding) {
    const kept = new Set(changes.map((change) => change.scope))
    const removals: InstructionChange[] = []
    for (const [scope, entry] of state.scopes) if (entry.fromBaseline && isLoaded(entry) && !kept.has(scope)) removals.push({ action: 'remove', scope, path: entry.path })
    changes = [...removals, ...changes]
  } else if (changes.length > 0 && changes.every((change) => alreadyVisible(state, change))) {
    return undefined
  }
  return instructionMessage({ plugin: ctx.plugin, text: rendered.text, changes, baselineIdentity: instance.identity })
}

/** Runs one pass and returns the messages to deliver (baseline first), possibly none. */
export async function runPass(ctx: PassContext, mode: PassMode, touched: readonly string[] = []): Promise<UserMessage[]> {
  const { instance, config } = ctx
  const state = deriveVisibleState(ctx.session, ctx.plugin, ctx.overlays)
  const { chain, all } = passDirs(ctx, mode, state, touched)
  const chainKeys = new Set(chain.map((dir) => dir.rel))
  const isBaselineScope = (key: string): boolean => {
    const scope = decodeScope(key)
    return scope !== undefined && (scope.kind === 'user-global' || chainKeys.has(scope.dir))
  }
  const knownDigest = (key: string, path: string): string | undefined => {
    if (mode !== 'touch' && isBaselineScope(key)) return undefined
    const entry = state.scopes.get(key)
    return isLoaded(entry) && entry.path === path ? entry.digest : instance.omitted.get(key)
  }
  const plan = { config, root: instance.project.root, dshHome: instance.dshHome, trustedRoots: instance.trustedRoots }
  const shared = mode === 'touch' ? ctx.shared : undefined
  const pass = { fs: ctx.fs, signal: ctx.signal, memo: ctx.memo, directoryVersions: config.directoryVersions, now: ctx.now, knownDigest, shared }
  const found = await discover(plan, pass, all, true)
  for (const o of found.observations) if (o.state === 'unavailable') ctx.onUnavailable?.(o.path, o.reason)
  const messages: UserMessage[] = []
  if (mode !== 'touch') {
    const files: LoadedFile[] = []
    for (const o of found.observations) {
      if (o.state === 'present' && o.content !== undefined && isBaselineScope(o.scope.key)) files.push({ scope: o.scope, path: o.path, content: o.content, digest: o.digest })
    }
    const baseline = composeBaseline(ctx, mode, state, files)
    if (baseline !== undefined) {
      messages.push(baseline)
      applyMessage(state, baseline, ctx.plugin)
    }
    if (mode === 'restore') return messages
  }
  const result = reconcile({ observations: found.observations, state: state.scopes, omitted: instance.omitted, examinedDirs: found.examined, examinedUserGlobal: true })
  for (const key of result.staleOmissions) instance.omitted.delete(key)
  const batch = renderChangeBatch(result.items, config.maxBytes)
  if (batch.changes.length > 0) messages.push(instructionMessage({ plugin: ctx.plugin, text: batch.text, changes: batch.changes }))
  return messages
}
