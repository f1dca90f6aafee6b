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
  removedSection,
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

/**
 * Renders a complete baseline of `files` (broad to specific). `superseding` adds the language
 * that replaces every earlier baseline, and renders an explicit empty baseline when no file is left.
 */
export function renderBaseline(files: readonly LoadedFile[], maxBytes: number, superseding = false): RenderedBaseline {
  const sections: LayoutSection[] = files.map((file) => ({ key: file.scope.key, path: file.path, heading: baselineHeading(file.path), content: file.content, rank: specificity(file.scope) }))
  const intro = superseding ? (files.length === 0 ? EMPTY_SUPERSEDING_INTRO : `${SUPERSEDING_PREFIX} ${BASELINE_INTRO}`) : BASELINE_INTRO
  if (files.length === 0 && !superseding) return { text: '', changes: [], omitted: [] }
  const layout = layoutWithinBudget(sections, maxBytes, intro)
  const changes = files
    .filter((file) => layout.retained.has(file.scope.key))
    .map((file) => withTruncation({ action: 'set', scope: file.scope.key, path: file.path, digest: file.digest }, layout.truncated === file.scope.key))
  return { text: layout.text, changes, omitted: files.filter((file) => !layout.retained.has(file.scope.key)), keptBytes: layout.keptBytes }
}

const scopeLabel = (scope: ScopeRef): string | undefined => (scope.kind === 'user-global' ? undefined : scope.dir)

function headingOf(item: ChangeItem): string {
  if (item.action === 'remove') return removedSection(item.path)
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
    content: item.action === 'remove' ? undefined : (item.content ?? ''),
    rank: specificity(item.scope),
  }))
  const layout = layoutWithinBudget(sections, maxBytes)
  const changes: InstructionChange[] = []
  for (const item of items) {
    if (!layout.retained.has(item.scope.key)) continue
    const change: InstructionChange = {
      action: item.action,
      scope: item.scope.key,
      path: item.path,
      ...(item.previousPath !== undefined && item.action === 'replace' ? { previousPath: item.previousPath } : {}),
      ...(item.action !== 'remove' && item.digest !== undefined ? { digest: item.digest } : {}),
    }
    changes.push(withTruncation(change, layout.truncated === item.scope.key))
  }
  return { text: changes.length === 0 ? '' : layout.text, changes, omitted: items.filter((item) => !layout.retained.has(item.scope.key)) }
}
