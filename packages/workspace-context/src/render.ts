/**
 * Rendering of complete baselines and change batches into framed text plus the typed changes
 * that the text actually represents (only retained sections become state; omitted ones are
 * retried later).
 */
import type { InstructionChange } from '@dsh/contracts'
import { layoutWithinBudget, type LayoutResult, type LayoutSection } from './budget.ts'
import {
  additionalSection,
  BASELINE_INTRO,
  baselineHeading,
  EMPTY_SUPERSEDING_INTRO,
  KEEPING_SUPERSEDING_INTRO,
  outdatedSection,
  readDeliveryLine,
  removedSection,
  retiredLine,
  sameFileLine,
  shownEarlierLine,
  stillInEffectLine,
  SUPERSEDING_PREFIX,
  switchedSection,
  updatedSection,
} from './frames.ts'
import { specificity, type ScopeRef } from './scope-key.ts'
import type { ChangeItem, LoadedFile, SameFileItem, Transition } from './types.ts'

/** A rendered baseline. */
export interface RenderedBaseline {
  /** Framed text; `''` when nothing could be rendered. */
  readonly text: string
  /** `set` changes of the retained files, in render order. */
  readonly changes: readonly InstructionChange[]
  /** Files left out by the budget. */
  readonly omitted: readonly LoadedFile[]
  /** Content bytes kept of the most specific cut file, if one was cut. */
  readonly keptBytes?: number | undefined
  /** Every cut file: scope key → content bytes kept. */
  readonly cuts?: ReadonlyMap<string, number> | undefined
}

/** A rendered change batch. */
export interface RenderedChanges {
  /** Framed text; `''` when no change could be rendered. */
  readonly text: string
  /** Retained changes, in render order. */
  readonly changes: readonly InstructionChange[]
  /** Items left out by the budget (retried later). */
  readonly omitted: readonly ChangeItem[]
}

const withTruncation = (change: InstructionChange, truncated: boolean): InstructionChange => (truncated ? { ...change, truncated: true } : change)

/** Lines a baseline carries besides its files (each a model-visible path list; empty lists are left out). */
export interface BaselineNotes {
  /** Files of the superseded baseline kept in effect because they could not be read now. */
  readonly stillInEffect?: readonly string[]
  /** Files left out because the conversation still shows them unchanged (restored baselines). */
  readonly shownEarlier?: readonly string[]
  /** Instructions of the previous project root that no longer apply (paths relative to it). */
  readonly retired?: readonly string[]
}

/** The note lines as content-less sections (kept by the budget as long as possible), right after the intro. */
function noteSections(notes: BaselineNotes): LayoutSection[] {
  const lines = [
    { key: 'retired', paths: notes.retired, line: retiredLine },
    { key: 'still-in-effect', paths: notes.stillInEffect, line: stillInEffectLine },
    { key: 'shown-earlier', paths: notes.shownEarlier, line: shownEarlierLine },
  ]
  return lines.flatMap(({ key, paths, line }) => (paths === undefined || paths.length === 0 ? [] : [{ key: `\u0000note\u0000${key}`, path: '', heading: line(paths), rank: -1 }]))
}

const scopeLabel = (scope: ScopeRef): string | undefined => (scope.kind === 'user-global' ? undefined : scope.dir)

/** An entry that may be rendered as a same-file line. */
interface SameFileCandidate {
  readonly scope: ScopeRef
  readonly content?: string | undefined
  readonly sameAs?: SameFileItem | undefined
}

/** How a layout treated the same-file entries. */
interface SameFileLayout {
  readonly layout: LayoutResult
  /** Keys rendered as a same-file line. */
  readonly lines: ReadonlySet<string>
  /** Keys left out: a line without backing and no content to fall back on (offered again later). */
  readonly excluded: ReadonlySet<string>
}

/**
 * Lays out entries, rendering each same-file entry as one line only while the scope it names is in
 * effect (before this message, or retained in it with its content). A line whose scope the budget
 * left out falls back to the entry's own content, or is left out when there is none.
 */
function layoutWithSameFiles(entries: readonly SameFileCandidate[], lay: (lines: ReadonlySet<string>, excluded: ReadonlySet<string>) => LayoutResult): SameFileLayout {
  const lines = new Set(entries.flatMap((entry) => (entry.sameAs === undefined ? [] : [entry.scope.key])))
  const excluded = new Set<string>()
  for (;;) {
    const layout = lay(lines, excluded)
    const backed = (item: SameFileItem): boolean => item.inEffect || (layout.retained.has(item.scope.key) && !lines.has(item.scope.key))
    const broken = entries.filter((entry) => entry.sameAs !== undefined && lines.has(entry.scope.key) && layout.retained.has(entry.scope.key) && !backed(entry.sameAs))
    if (broken.length === 0) return { layout, lines, excluded }
    for (const entry of broken) {
      lines.delete(entry.scope.key)
      if (entry.content === undefined) excluded.add(entry.scope.key)
    }
  }
}

/** The section of one baseline file; `asLine` renders a same-file entry as its line. */
function baselineSection(file: LoadedFile, asLine: boolean): LayoutSection {
  const base = { key: file.scope.key, path: file.path, rank: specificity(file.scope) }
  return asLine && file.sameAs !== undefined ? { ...base, heading: sameFileLine(file.path, file.sameAs.path, scopeLabel(file.scope)) } : { ...base, heading: baselineHeading(file.path), content: file.content }
}

/** Options of {@link renderBaseline}. */
export interface BaselineRenderOptions {
  /** Adds the language that replaces every earlier baseline; an explicit empty baseline when no file is left. */
  readonly superseding?: boolean | undefined
  /** Lines of {@link BaselineNotes} after the intro. */
  readonly notes?: BaselineNotes | undefined
  /** Decision D7 (see `budget.ts`); default 1 (the seed's rule). */
  readonly maxFileShare?: number | undefined
}

/**
 * Renders a complete baseline of `files` (broad to specific). The third argument is either the
 * options or (older form) `superseding`, with `notes` fourth.
 */
export function renderBaseline(files: readonly LoadedFile[], maxBytes: number, options: boolean | BaselineRenderOptions = {}, legacyNotes?: BaselineNotes): RenderedBaseline {
  const { superseding = false, notes = legacyNotes ?? {}, maxFileShare } = typeof options === 'boolean' ? { superseding: options } : options
  const notesSections = noteSections(notes)
  const keeping = (notes.stillInEffect?.length ?? 0) > 0
  const emptyIntro = keeping ? KEEPING_SUPERSEDING_INTRO : EMPTY_SUPERSEDING_INTRO
  const intro = superseding ? (files.length === 0 ? emptyIntro : `${SUPERSEDING_PREFIX} ${BASELINE_INTRO}`) : BASELINE_INTRO
  if (files.length === 0 && !superseding && notesSections.length === 0) return { text: '', changes: [], omitted: [] }
  const { layout, lines, excluded } = layoutWithSameFiles(files, (asLine, left) =>
    layoutWithinBudget([...notesSections, ...files.filter((file) => !left.has(file.scope.key)).map((file) => baselineSection(file, asLine.has(file.scope.key)))], maxBytes, { intro, maxFileShare }),
  )
  const retained = files.filter((file) => layout.retained.has(file.scope.key) && !excluded.has(file.scope.key))
  const changes = retained.map((file) => {
    const change: InstructionChange = { action: 'set', scope: file.scope.key, path: file.path, digest: file.digest }
    if (lines.has(file.scope.key) && file.sameAs !== undefined) return { ...change, sameAs: { scope: file.sameAs.scope.key, path: file.sameAs.path } }
    return withTruncation(change, layout.cuts.has(file.scope.key))
  })
  return { text: layout.text, changes, omitted: files.filter((file) => !retained.includes(file)), keptBytes: layout.keptBytes, cuts: layout.cuts }
}

function contentHeading(item: Transition): string {
  if (item.action === 'set') return additionalSection(item.path, scopeLabel(item.scope))
  return item.previousPath !== undefined && item.previousPath !== item.path ? switchedSection(item.path, item.previousPath) : updatedSection(item.path)
}

/** The section of one transition; `asLine` renders a same-file entry as its line. */
function itemSection(item: ChangeItem, asLine: boolean): LayoutSection {
  const base = { key: item.scope.key, path: item.path, rank: specificity(item.scope) }
  switch (item.action) {
    case 'remove':
      return { ...base, heading: removedSection(item.path) }
    case 'outdated':
      return { ...base, heading: outdatedSection(item.path, item.reason) }
    case 'set':
    case 'replace': {
      const previous = item.action === 'replace' ? item.previousPath : undefined
      if (asLine && item.sameAs !== undefined) return { ...base, heading: sameFileLine(item.path, item.sameAs.path, scopeLabel(item.scope), previous) }
      if (item.readCallId !== undefined) return { ...base, heading: readDeliveryLine(item.path, scopeLabel(item.scope), previous, item.action === 'replace') }
      return { ...base, heading: contentHeading(item), content: item.content ?? '', outdates: item.action === 'replace' ? (item.previousPath ?? item.path) : undefined }
    }
    default:
      return unreachable(item)
  }
}

function unreachable(item: never): never {
  throw new Error(`unknown change item ${JSON.stringify(item)}`)
}

/** The typed change a retained item records. */
function changeOf(item: ChangeItem, asLine: boolean, truncated: boolean): InstructionChange {
  if (item.action === 'remove') return { action: 'remove', scope: item.scope.key, path: item.path }
  // An outdated notice persists as a `replace` without a digest, marked `unloadable`: still loaded, content unknown.
  if (item.action === 'outdated') return { action: 'replace', scope: item.scope.key, path: item.path, unloadable: item.reason }
  const change: InstructionChange = {
    action: item.action,
    scope: item.scope.key,
    path: item.path,
    ...(item.action === 'replace' && item.previousPath !== undefined ? { previousPath: item.previousPath } : {}),
    ...(item.digest === undefined ? {} : { digest: item.digest }),
  }
  if (asLine && item.sameAs !== undefined) return { ...change, sameAs: { scope: item.sameAs.scope.key, path: item.sameAs.path } }
  if (item.readCallId !== undefined) return { ...change, readCallId: item.readCallId }
  return withTruncation(change, truncated)
}

/** Options of {@link renderChangeBatch}. */
export interface ChangeBatchRenderOptions {
  /** Decision D7 (see `budget.ts`); default 1 (the seed's rule). */
  readonly maxFileShare?: number | undefined
}

/** Whether `ancestor` covers `item`'s directory more broadly (the user-global file, an ancestor directory, or the same directory's base file before its overlay). */
function isAncestor(ancestor: ScopeRef, item: ScopeRef): boolean {
  if (specificity(ancestor) >= specificity(item) || item.kind === 'user-global') return false
  if (ancestor.kind === 'user-global' || ancestor.dir === '.') return true
  return item.dir === ancestor.dir || item.dir.startsWith(`${ancestor.dir}/`)
}

/**
 * Renders one batch of transitions (all sections share one frame) under `maxBytes`.
 *
 * A newly reached scope travels with every newly reached scope on its chain (issue 8 item 3): when
 * the budget leaves out an ancestor's `set`, its descendants' `set`s are left out too (named as
 * omitted, offered again at the next touch), so instructions never arrive before the broader ones
 * they refine. Within that, the layout rules of `budget.ts` apply.
 */
export function renderChangeBatch(items: readonly ChangeItem[], maxBytes: number, options: ChangeBatchRenderOptions = {}): RenderedChanges {
  if (items.length === 0) return { text: '', changes: [], omitted: [] }
  const deferred = new Set<string>()
  for (;;) {
    const active = items.filter((item) => !deferred.has(item.scope.key))
    const later = items.filter((item) => deferred.has(item.scope.key)).map((item) => itemSection(item, false))
    const candidates = active.map((item) => ({ scope: item.scope, content: item.action === 'set' || item.action === 'replace' ? item.content : undefined, sameAs: item.action === 'set' || item.action === 'replace' ? item.sameAs : undefined }))
    const { layout, lines, excluded } = layoutWithSameFiles(candidates, (asLine, left) =>
      layoutWithinBudget(active.filter((item) => !left.has(item.scope.key)).map((item) => itemSection(item, asLine.has(item.scope.key))), maxBytes, { maxFileShare: options.maxFileShare, deferred: later }),
    )
    const kept = (item: ChangeItem): boolean => layout.retained.has(item.scope.key) && !excluded.has(item.scope.key)
    const sets = active.filter((item) => item.action === 'set')
    const orphans = sets.filter((item) => kept(item) && sets.some((other) => !kept(other) && isAncestor(other.scope, item.scope)))
    if (orphans.length > 0) {
      for (const item of orphans) deferred.add(item.scope.key)
      continue
    }
    const changes = active.filter(kept).map((item) => changeOf(item, lines.has(item.scope.key), layout.cuts.has(item.scope.key)))
    return { text: changes.length === 0 ? '' : layout.text, changes, omitted: items.filter((item) => !changes.some((change) => change.scope === item.scope.key)) }
  }
}
