/**
 * What the model has been told about skills, derived only from the typed sources of this
 * plugin's catalog messages on the session's visible surface (never from prose, never from
 * memory): a resumed session continues where it was, and a compaction that drops those messages
 * makes the plugin send the catalog again. The fold is incremental between compactions (the
 * surface only grows by appends then), so a quiet step costs a look at the new entries only. It
 * also keeps the bytes of the lines in effect and the id of the message folded last, which let the
 * plugin tell that the model holds exactly what its last message said.
 */
import type { MessageSource, SessionEvent, SessionView, UserMessage } from '@dsh/contracts'

/** `source.plugin` of the catalog messages. */
export const PLUGIN_NAME = 'skills'

/** One persisted catalog transition (in `source.data.changes`). */
export interface CatalogChange {
  /** `set`: listed (new or changed); `omit`: named as left out by the budget; `remove`: withdrawn. */
  readonly action: 'set' | 'omit' | 'remove'
  /** The name the skill is invoked by. */
  readonly key: string
  /** SHA-256 of the catalog line (absent for `remove`). */
  readonly digest?: string
  /** UTF-8 bytes of the catalog line (`set` only). */
  readonly bytes?: number
  /** Directory below the cwd the skill came from (nested skills), so a resumed session looks there again. */
  readonly nestedDir?: string
}

/** The persisted data of a catalog message. */
export interface CatalogData {
  readonly version: 1
  readonly changes: readonly CatalogChange[]
}

/** What the model holds for one skill. */
export interface DeliveredEntry {
  readonly digest: string
  readonly bytes: number
  readonly omitted: boolean
  readonly nestedDir?: string | undefined
}

/** The catalog message source. */
export const catalogSource = (changes: readonly CatalogChange[]): MessageSource => ({ kind: 'plugin', plugin: PLUGIN_NAME, form: 'catalog', data: { version: 1, changes } satisfies CatalogData })

function validChange(value: unknown): value is CatalogChange {
  if (typeof value !== 'object' || value === null) return false
  const action: unknown = Reflect.get(value, 'action')
  const digest: unknown = Reflect.get(value, 'digest')
  return (action === 'set' || action === 'omit' || action === 'remove') && typeof Reflect.get(value, 'key') === 'string' && (action === 'remove' || typeof digest === 'string')
}

/** The catalog changes of `message`, `undefined` when it is no catalog message of this plugin. */
export function catalogChanges(message: UserMessage): readonly CatalogChange[] | undefined {
  const source = message.source
  if (source.kind !== 'plugin' || source.plugin !== PLUGIN_NAME || source.form !== 'catalog') return undefined
  const data: unknown = source.data
  if (typeof data !== 'object' || data === null || Reflect.get(data, 'version') !== 1) return undefined
  const changes: unknown = Reflect.get(data, 'changes')
  return Array.isArray(changes) ? changes.filter(validChange) : undefined
}

/** Applies `changes` to `state` (mutating); returns how much the bytes of the listed (not omitted) entries grew. */
export function applyChanges(state: Map<string, DeliveredEntry>, changes: readonly CatalogChange[]): number {
  let grown = 0
  for (const change of changes) {
    const before = state.get(change.key)
    if (before !== undefined && !before.omitted) grown -= before.bytes
    if (change.action === 'remove') {
      state.delete(change.key)
      continue
    }
    const bytes = change.action === 'set' ? (change.bytes ?? 0) : 0
    grown += bytes
    state.set(change.key, { digest: change.digest ?? '', bytes, omitted: change.action === 'omit', nestedDir: change.nestedDir })
  }
  return grown
}

const isUserMessage = (value: unknown): value is UserMessage => typeof value === 'object' && value !== null && typeof Reflect.get(value, 'source') === 'object' && Reflect.get(value, 'role') === 'user'

function messageOf(event: SessionEvent | undefined): UserMessage | undefined {
  if (event?.type !== 'user/message') return undefined
  const data: unknown = event.data
  const message: unknown = typeof data === 'object' && data !== null ? Reflect.get(data, 'message') : undefined
  return isUserMessage(message) ? message : undefined
}

/**
 * The directories below the cwd whose skills the session's catalog announced (joined on touch):
 * front ends expand their qualified names (`/pkg/web:deploy`) as the catalog listed them.
 */
export function announcedNestedDirs(session: SessionView): string[] {
  const dirs = new Set<string>()
  new DeliveredFold().current(session).forEach((entry) => {
    if (entry.nestedDir !== undefined) dirs.add(entry.nestedDir)
  })
  return [...dirs]
}

/** The delivered catalog of one session's surface, folded incrementally. */
export class DeliveredFold {
  #generation = -1
  #folded = 0
  #state = new Map<string, DeliveredEntry>()
  #revision = 0
  #listedBytes = 0
  #lastId: string | undefined
  /** Nested directories named by changes folded since the last {@link takeNestedDirs}. */
  #nestedDirs = new Set<string>()

  /** Changes with every catalog message folded and every reset: an equal revision is an equal state. */
  get revision(): number {
    return this.#revision
  }

  /** UTF-8 bytes of the catalog lines in effect (entries listed, not omitted), as the budget counts them. */
  get listedBytes(): number {
    return this.#listedBytes
  }

  /** The id of the catalog message folded last; `undefined` when none was folded since the last reset. */
  get lastFoldedId(): string | undefined {
    return this.#lastId
  }

  /** The nested directories the changes folded since the last call name (each once), and forgets them. */
  takeNestedDirs(): ReadonlySet<string> {
    const dirs = this.#nestedDirs
    this.#nestedDirs = new Set()
    return dirs
  }

  /** What the visible surface of `session` told the model (a live view: read it before the next fold). */
  current(session: SessionView): ReadonlyMap<string, DeliveredEntry> {
    const surface = session.surface
    if (session.replaceGeneration !== this.#generation || surface.length < this.#folded) {
      this.#generation = session.replaceGeneration
      this.#folded = 0
      this.#state = new Map()
      this.#listedBytes = 0
      this.#lastId = undefined
      this.#revision++
    }
    for (; this.#folded < surface.length; this.#folded++) {
      const seq = surface[this.#folded]
      const message = seq === undefined ? undefined : messageOf(session.eventBySeq(seq))
      const changes = message === undefined ? undefined : catalogChanges(message)
      if (changes === undefined) continue
      this.#listedBytes += applyChanges(this.#state, changes)
      this.#lastId = message?.id
      this.#revision++
      for (const change of changes) if (change.action !== 'remove' && change.nestedDir !== undefined) this.#nestedDirs.add(change.nestedDir)
    }
    return this.#state
  }
}
