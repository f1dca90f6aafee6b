/**
 * The byte-budget layout engine shared by baselines and change batches. Given sections in render
 * order (broad to specific), it returns the framed text that fits `maxBytes` bytes:
 *
 * 1. everything, when it fits;
 * 2. otherwise the broadest content sections are dropped whole, one at a time, until the rest fits
 *    (sections without content, i.e. removals, are kept as long as possible);
 * 3. otherwise only the most specific content section remains, cut on a UTF-8 boundary to the
 *    longest content prefix that fits (a cut to zero bytes counts as omitted);
 * 4. otherwise the notice (and removals) alone; otherwise nothing.
 *
 * Whenever something is dropped or cut, a budget notice comes first in the body. Escaping runs
 * over the whole body before bytes are counted, so the result never exceeds `maxBytes`.
 */
import { escapeFrameText } from './escape.ts'
import { budgetNotice, COMPACT_INTRO, framed } from './frames.ts'
import { longestFittingPrefix, utf8Bytes } from './utf8.ts'

/** One section to lay out. */
export interface LayoutSection {
  /** Caller's identity of the section. */
  readonly key: string
  /** Model-visible path named by the budget notice. */
  readonly path: string
  /** Heading lines (unescaped). */
  readonly heading: string
  /** File content (unescaped); absent for sections without content. */
  readonly content?: string | undefined
  /** Specificity: higher is more specific, kept first. */
  readonly rank: number
  /**
   * An update: the model-visible path whose loaded text this section replaces. When the section
   * is left out, the notice says that text is outdated.
   */
  readonly outdates?: string | undefined
}

/** Result of a layout. */
export interface LayoutResult {
  /** Framed text; `''` when nothing fits. */
  readonly text: string
  /** Keys of sections represented in the text. */
  readonly retained: ReadonlySet<string>
  /** Key of the section whose content was cut, if any. */
  readonly truncated?: string | undefined
  /** Content bytes kept of the cut section. */
  readonly keptBytes?: number | undefined
  /** Keys of sections left out. */
  readonly omitted: readonly string[]
}

interface Attempt {
  readonly intro: string | undefined
  readonly sections: readonly LayoutSection[]
  readonly cut?: { readonly key: string; readonly length: number } | undefined
  readonly dropped: readonly LayoutSection[]
}

const bodyOf = (section: LayoutSection, cutLength?: number): string => {
  if (section.content === undefined) return section.heading
  const content = cutLength === undefined ? section.content : section.content.slice(0, cutLength)
  return `${section.heading}\n\n${content}`
}

function render(attempt: Attempt, maxBytes: number): string {
  const cutSection = attempt.cut === undefined ? undefined : attempt.sections.find((s) => s.key === attempt.cut?.key)
  const needsNotice = attempt.dropped.length > 0 || cutSection !== undefined
  const notice = needsNotice
    ? budgetNotice({
        maxBytes,
        omitted: attempt.dropped.map((s) => ({ path: s.path, bytes: utf8Bytes(s.content ?? ''), outdates: s.outdates })),
        truncated:
          cutSection === undefined || attempt.cut === undefined
            ? undefined
            : { path: cutSection.path, bytes: utf8Bytes(cutSection.content ?? ''), kept: utf8Bytes((cutSection.content ?? '').slice(0, attempt.cut.length)) },
      })
    : undefined
  const parts = [notice, attempt.intro, ...attempt.sections.map((s) => bodyOf(s, s.key === attempt.cut?.key ? attempt.cut.length : undefined))]
  return framed(escapeFrameText(parts.filter((p): p is string => p !== undefined && p !== '').join('\n\n')))
}

function result(attempt: Attempt, text: string): LayoutResult {
  const cutSection = attempt.cut === undefined ? undefined : attempt.sections.find((s) => s.key === attempt.cut?.key)
  return {
    text,
    retained: new Set(attempt.sections.map((s) => s.key)),
    truncated: attempt.cut?.key,
    keptBytes: cutSection === undefined ? undefined : utf8Bytes((cutSection.content ?? '').slice(0, attempt.cut?.length)),
    omitted: attempt.dropped.map((s) => s.key),
  }
}

/** Lays out `sections` (render order) under `maxBytes`. `intro` is shown before the sections. */
export function layoutWithinBudget(sections: readonly LayoutSection[], maxBytes: number, intro?: string): LayoutResult {
  const empty: LayoutResult = { text: '', retained: new Set(), omitted: sections.map((s) => s.key) }
  if (!(maxBytes > 0) || !Number.isFinite(maxBytes)) return empty
  const fits = (attempt: Attempt): string | undefined => {
    const text = render(attempt, maxBytes)
    return utf8Bytes(text) <= maxBytes ? text : undefined
  }
  const whole: Attempt = { intro, sections, dropped: [] }
  const wholeText = fits(whole)
  if (wholeText !== undefined) return result(whole, wholeText)

  const droppable = sections
    .map((section, index) => ({ section, index }))
    .filter((entry) => entry.section.content !== undefined)
    .toSorted((a, b) => a.section.rank - b.section.rank || a.index - b.index)
    .map((entry) => entry.section)
  for (let k = 1; k < droppable.length; k++) {
    const dropped = droppable.slice(0, k)
    const attempt: Attempt = { intro, sections: sections.filter((s) => !dropped.includes(s)), dropped }
    const text = fits(attempt)
    if (text !== undefined) return result(attempt, text)
  }

  const last = droppable.at(-1)
  if (last !== undefined) {
    const dropped = droppable.slice(0, -1)
    const kept = sections.filter((s) => !dropped.includes(s))
    for (const candidateIntro of intro === undefined ? [undefined] : [intro, COMPACT_INTRO]) {
      const content = last.content ?? ''
      const length = longestFittingPrefix(content, (prefix) => fits({ intro: candidateIntro, sections: kept, dropped, cut: { key: last.key, length: prefix.length } }) !== undefined)
      if (length > 0 || content === '') {
        const attempt: Attempt = { intro: candidateIntro, sections: kept, dropped, cut: content === '' ? undefined : { key: last.key, length } }
        const text = fits(attempt)
        if (text !== undefined) return result(attempt, text)
      }
    }
  }

  const withoutContent: Attempt = { intro: undefined, sections: sections.filter((s) => s.content === undefined), dropped: droppable }
  const removalsText = fits(withoutContent)
  if (removalsText !== undefined) return result(withoutContent, removalsText)
  const noticeOnly: Attempt = { intro: undefined, sections: [], dropped: droppable }
  const noticeText = droppable.length > 0 ? fits(noticeOnly) : undefined
  return noticeText === undefined ? empty : result(noticeOnly, noticeText)
}
