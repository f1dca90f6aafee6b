/**
 * Rendering of complete baselines and change batches into framed text plus the typed changes
 * that the text actually represents (only retained sections become state; omitted ones are
 * retried later).
 */
import type { InstructionChange } from '@dsh/contracts'
import { layoutWithinBudget, type LayoutSection } from './budget.ts'
import {
  additionalSection,
  BASELINE_INTRO,
  baselineHeading,
  EMPTY_SUPERSEDING_INTRO,
  KEEPING_SUPERSEDING_INTRO,
  outdatedSection,
  removedSection,
  retiredLine,
  shownEarlierLine,
  stillInEffectLine,
  SUPERSEDING_PREFIX,
  switchedSection,
  updatedSection,
} from './frames.ts'
import { specificity, type ScopeRef } from './scope-key.ts'
import type { ChangeItem, LoadedFile } from './types.ts'

/** A rendered baseline. */
export interface RenderedBaseline {
  /** Framed text; `''` when nothing could be rendered. */
  readonly text: string
  /** `set` changes of the retained files, in render order. */
  readonly changes: readonly InstructionChange[]
  /** Files left out by the budget. */
  readonly omitted: readonly LoadedFile[]
  /** Content bytes kept of the truncated file, if one was cut. */
  readonly keptBytes?: number | undefined
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

/**
 * Renders a complete baseline of `files` (broad to specific). `superseding` adds the language
 * that replaces every earlier baseline, and renders an explicit empty baseline when no file is left.
 * `notes` adds the lines of {@link BaselineNotes} after the intro.
 */
export function renderBaseline(files: readonly LoadedFile[], maxBytes: number, superseding = false, notes: BaselineNotes = {}): RenderedBaseline {
  const notesSections = noteSections(notes)
  const sections: LayoutSection[] = [...notesSections, ...files.map((file) => ({ key: file.scope.key, path: file.path, heading: baselineHeading(file.path), content: file.content, rank: specificity(file.scope) }))]
  const keeping = (notes.stillInEffect?.length ?? 0) > 0
  const emptyIntro = keeping ? KEEPING_SUPERSEDING_INTRO : EMPTY_SUPERSEDING_INTRO
  const intro = superseding ? (files.length === 0 ? emptyIntro : `${SUPERSEDING_PREFIX} ${BASELINE_INTRO}`) : BASELINE_INTRO
  if (files.length === 0 && !superseding && notesSections.length === 0) return { text: '', changes: [], omitted: [] }
  const layout = layoutWithinBudget(sections, maxBytes, intro)
  const changes = files
    .filter((file) => layout.retained.has(file.scope.key))
    .map((file) => withTruncation({ action: 'set', scope: file.scope.key, path: file.path, digest: file.digest }, layout.truncated === file.scope.key))
  return { text: layout.text, changes, omitted: files.filter((file) => !layout.retained.has(file.scope.key)), keptBytes: layout.keptBytes }
}

const scopeLabel = (scope: ScopeRef): string | undefined => (scope.kind === 'user-global' ? undefined : scope.dir)

function headingOf(item: ChangeItem): string {
  if (item.action === 'remove') return removedSection(item.path)
  if (item.action === 'outdated') return outdatedSection(item.path, item.reason)
  if (item.action === 'set') return additionalSection(item.path, scopeLabel(item.scope))
  return item.previousPath !== undefined && item.previousPath !== item.path ? switchedSection(item.path, item.previousPath) : updatedSection(item.path)
}

/** Renders one batch of transitions (all sections share one frame) under `maxBytes`. */
export function renderChangeBatch(items: readonly ChangeItem[], maxBytes: number): RenderedChanges {
  if (items.length === 0) return { text: '', changes: [], omitted: [] }
  const sections: LayoutSection[] = items.map((item) => ({
    key: item.scope.key,
    path: item.path,
    heading: headingOf(item),
    content: item.action === 'remove' || item.action === 'outdated' ? undefined : (item.content ?? ''),
    rank: specificity(item.scope),
    outdates: item.action === 'replace' ? (item.previousPath ?? item.path) : undefined,
  }))
  const layout = layoutWithinBudget(sections, maxBytes)
  const changes: InstructionChange[] = []
  for (const item of items) {
    if (!layout.retained.has(item.scope.key)) continue
    // An outdated notice persists as a `replace` without a digest, marked `unloadable`: still loaded, content unknown.
    const change: InstructionChange = {
      action: item.action === 'outdated' ? 'replace' : item.action,
      scope: item.scope.key,
      path: item.path,
      ...(item.action === 'outdated' ? { unloadable: item.reason } : {}),
      ...(item.action === 'replace' && item.previousPath !== undefined ? { previousPath: item.previousPath } : {}),
      ...((item.action === 'set' || item.action === 'replace') && item.digest !== undefined ? { digest: item.digest } : {}),
    }
    changes.push(withTruncation(change, layout.truncated === item.scope.key))
  }
  return { text: changes.length === 0 ? '' : layout.text, changes, omitted: items.filter((item) => !layout.retained.has(item.scope.key)) }
}
