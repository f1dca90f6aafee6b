/**
 * Effective instruction state, derived only from typed message sources: the `user/message`
 * events on the visible surface (in log order), then overlay messages (pending contexts and the
 * batch a pre-step is about to enter). The last change per scope wins; a `remove` is a tombstone.
 * Model-visible prose is never parsed, and sources of other plugins, unknown versions or
 * malformed entries are ignored.
 */
import type { InstructionChange, Message, MessageSource, SessionView, UserMessage, WorkspaceInstructionsSource } from '@dsh/contracts'
import { toolResultCallId, userMessageOf } from './guards.ts'

/** The latest change of one scope. */
export interface EffectiveEntry {
  readonly action: InstructionChange['action']
  readonly path: string
  readonly digest?: string | undefined
  readonly truncated: boolean
  /** The change came from a complete baseline. */
  readonly fromBaseline: boolean
  /**
   * An outdated notice (a `replace` marked `unloadable`): the file changed but could not be loaded,
   * so the text the model has from it may be outdated.
   */
  readonly outdated: boolean
  /** The same file as this other scope's, whose content the model has (decision D9). */
  readonly sameAs?: { readonly scope: string; readonly path: string } | undefined
  /** The content reached the model as the result of this `read` call (decision D9). */
  readonly readCallId?: string | undefined
}

/** Effective state of a session. */
export interface VisibleState {
  readonly scopes: Map<string, EffectiveEntry>
  /** Latest visible complete baseline, if any. */
  readonly baseline?: { readonly identity: string | undefined; readonly messageId: string } | undefined
}

const ACTIONS = new Set(['set', 'replace', 'remove'])

function validChange(value: unknown): value is InstructionChange {
  if (typeof value !== 'object' || value === null) return false
  const field = (key: string): unknown => Reflect.get(value, key)
  const action = field('action')
  if (typeof action !== 'string' || !ACTIONS.has(action)) return false
  if (typeof field('scope') !== 'string' || typeof field('path') !== 'string') return false
  for (const key of ['digest', 'previousPath', 'readCallId']) if (field(key) !== undefined && typeof field(key) !== 'string') return false
  const sameAs = field('sameAs')
  if (sameAs !== undefined && (typeof sameAs !== 'object' || sameAs === null || typeof Reflect.get(sameAs, 'scope') !== 'string' || typeof Reflect.get(sameAs, 'path') !== 'string')) return false
  return field('truncated') === undefined || typeof field('truncated') === 'boolean'
}

/** The typed source of `plugin`'s instruction message, with malformed changes dropped. */
export function instructionSource(source: MessageSource | undefined, plugin: string): WorkspaceInstructionsSource | undefined {
  if (source?.kind !== 'workspace-instructions') return undefined
  if (source.plugin !== plugin || source.version !== 1 || !Array.isArray(source.changes)) return undefined
  const changes = source.changes.filter((change: unknown) => validChange(change))
  return { ...source, changes }
}

/** True when `message` is an instruction message of `plugin`. */
export const isInstructionMessage = (message: UserMessage, plugin: string): boolean => instructionSource(message.source, plugin) !== undefined

/** Messages on the visible surface, in order. */
export function visibleUserMessages(session: SessionView): UserMessage[] {
  const messages: UserMessage[] = []
  for (const seq of session.surface) {
    const message = userMessageOf(session.eventBySeq(seq))
    if (message !== undefined) messages.push(message)
  }
  return messages
}

/** Call ids of the successful tool results on the visible surface. */
function visibleToolCalls(session: SessionView): Set<string> {
  const ids = new Set<string>()
  for (const seq of session.surface) {
    const id = toolResultCallId(session.eventBySeq(seq))
    if (id !== undefined) ids.add(id)
  }
  return ids
}

/** Applies one message to `state` (mutating). */
export function applyMessage(state: { scopes: Map<string, EffectiveEntry>; baseline?: VisibleState['baseline'] }, message: UserMessage, plugin: string): void {
  const source = instructionSource(message.source, plugin)
  if (source === undefined) return
  const fromBaseline = source.baseline === true
  if (fromBaseline) state.baseline = { identity: source.baselineIdentity, messageId: message.id }
  for (const change of source.changes) {
    const outdated = change.action === 'replace' && change.unloadable !== undefined
    const links = { ...(change.sameAs === undefined ? {} : { sameAs: change.sameAs }), ...(change.readCallId === undefined ? {} : { readCallId: change.readCallId }) }
    state.scopes.set(change.scope, { action: change.action, path: change.path, digest: change.digest, truncated: change.truncated === true, fromBaseline, outdated, ...links })
  }
}

/**
 * Drops entries whose content the model no longer has (decision D9): one delivered by a `read`
 * whose result is not visible (`visibleCalls`; `undefined` when every one counts as visible), and
 * one that is the same file as a scope that is no longer loaded with its own content. Such a scope
 * is offered again like one compaction removed.
 */
function dropUnbacked(scopes: Map<string, EffectiveEntry>, visibleCalls: () => ReadonlySet<string> | undefined): void {
  for (const [key, entry] of scopes) {
    const calls = entry.readCallId === undefined ? undefined : visibleCalls()
    if (entry.readCallId !== undefined && calls !== undefined && !calls.has(entry.readCallId)) scopes.delete(key)
  }
  for (const [key, entry] of scopes) {
    if (entry.sameAs === undefined) continue
    const other = scopes.get(entry.sameAs.scope)
    if (!isLoaded(other) || other.sameAs !== undefined || other.outdated) scopes.delete(key)
  }
}

/**
 * Effective state for `plugin`, with `overlays` applied last: of `session`'s visible surface, or of
 * `visible`, the messages a session's visible surface derives to (other roles are skipped), so
 * readers holding only the derived history (the chat's `/context`) fold exactly as the plugin does.
 */
export function deriveVisibleState(visible: SessionView | readonly Message[], plugin: string, overlays: readonly UserMessage[] = []): VisibleState {
  const state: { scopes: Map<string, EffectiveEntry>; baseline?: VisibleState['baseline'] } = { scopes: new Map() }
  const messages = isMessageList(visible) ? visible.filter((message): message is UserMessage => message.role === 'user') : visibleUserMessages(visible)
  for (const message of messages) applyMessage(state, message, plugin)
  // Pending and entering messages follow tool results not logged yet: their reads count as visible.
  const pendingReads = new Set<string>()
  for (const message of overlays) {
    applyMessage(state, message, plugin)
    for (const change of instructionSource(message.source, plugin)?.changes ?? []) if (change.readCallId !== undefined) pendingReads.add(change.readCallId)
  }
  let calls: Set<string> | undefined
  dropUnbacked(state.scopes, () => {
    calls ??= new Set([...(isMessageList(visible) ? toolCallIdsOf(visible) : visibleToolCalls(visible)), ...pendingReads])
    return calls
  })
  return state
}

const toolCallIdsOf = (messages: readonly Message[]): string[] => messages.flatMap((message) => (message.role === 'tool' && !message.isError ? [message.callId] : []))

const isMessageList = (visible: SessionView | readonly Message[]): visible is readonly Message[] => Array.isArray(visible)

/** True when `session` ever logged a complete baseline of `plugin` (visible or shadowed). */
export function hasLoggedBaseline(session: SessionView, plugin: string): boolean {
  return latestBaselineIdentity(session, plugin) !== undefined
}

/**
 * Identity of the latest complete baseline `session` logged for `plugin` (visible or shadowed);
 * `''` for one without an identity, `undefined` when none was logged.
 */
export function latestBaselineIdentity(session: SessionView, plugin: string): string | undefined {
  for (let index = session.events.length - 1; index >= 0; index--) {
    const source = instructionSource(userMessageOf(session.events[index])?.source, plugin)
    if (source?.baseline === true) return source.baselineIdentity ?? ''
  }
  return undefined
}

/**
 * Identity of the settings the latest logged message of `plugin` that records one (a baseline, or
 * a change batch) was composed under, visible or shadowed; `undefined` when none records one.
 */
export function latestRecordedIdentity(session: SessionView, plugin: string): string | undefined {
  for (let index = session.events.length - 1; index >= 0; index--) {
    const source = instructionSource(userMessageOf(session.events[index])?.source, plugin)
    if (source?.baseline === true) return source.baselineIdentity ?? ''
    if (source?.baselineIdentity !== undefined) return source.baselineIdentity
  }
  return undefined
}

/** True when the entry is loaded (not a tombstone). */
export const isLoaded = (entry: EffectiveEntry | undefined): entry is EffectiveEntry => entry !== undefined && entry.action !== 'remove'
