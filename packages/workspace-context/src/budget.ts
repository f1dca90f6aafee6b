/**
 * The byte-budget layout engine shared by baselines and change batches. Given sections in render
 * order (broad to specific), it returns the framed text that fits `maxBytes` bytes:
 *
 * 1. everything, when it fits (a chain that fits is never cut);
 * 2. with a file share below 1 (decision D7), every content section longer than
 *    `maxFileShare × maxBytes` bytes is cut to that many bytes; if everything fits now, done;
 * 3. otherwise (the share cuts kept) the broadest content sections are dropped whole, one at a
 *    time, until the rest fits (sections without content, i.e. removals and one-line notes, are
 *    kept as long as possible);
 * 4. otherwise only the most specific content section remains, cut on a UTF-8 boundary to the
 *    longest content prefix that fits (a cut to zero bytes counts as omitted);
 * 5. otherwise the notice (and removals) alone; otherwise nothing.
 *
 * Whenever something is dropped or cut, a budget notice comes first in the body. Escaping runs
 * over the whole body before bytes are counted, so the result never exceeds `maxBytes`.
 */
import { escapeFrameText } from './escape.ts'
import { budgetNotice, COMPACT_INTRO, framed } from './frames.ts'
import { longestFittingPrefix, safeCut, utf8Bytes } from './utf8.ts'

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

/** Layout options. */
export interface LayoutOptions {
  /** Shown before the sections (the baseline intro). */
  readonly intro?: string | undefined
  /**
   * Decision D7: when the sections do not fit, each content longer than this share of `maxBytes`
   * is first cut to it. Default 1: no share cuts (the seed's rule).
   */
  readonly maxFileShare?: number | undefined
  /** Sections the caller left out before laying out: the notice names them as omitted too. */
  readonly deferred?: readonly LayoutSection[] | undefined
}

/** Result of a layout. */
export interface LayoutResult {
  /** Framed text; `''` when nothing fits. */
  readonly text: string
  /** Keys of sections represented in the text. */
  readonly retained: ReadonlySet<string>
  /** Every cut section: key → content bytes kept. */
  readonly cuts: ReadonlyMap<string, number>
  /** Key of the most specific cut section, if any (see `cuts` for all of them). */
  readonly truncated?: string | undefined
  /** Content bytes kept of the `truncated` section. */
  readonly keptBytes?: number | undefined
  /** Keys of sections left out. */
  readonly omitted: readonly string[]
}

interface Attempt {
  readonly intro: string | undefined
  readonly sections: readonly LayoutSection[]
  /** Cut sections: key → content length kept (UTF-16 units, on a code point boundary). */
  readonly cuts: ReadonlyMap<string, number>
  readonly dropped: readonly LayoutSection[]
}

const contentOf = (section: LayoutSection, cuts: ReadonlyMap<string, number>): string => {
  const content = section.content ?? ''
  const length = cuts.get(section.key)
  return length === undefined ? content : content.slice(0, length)
}

const bodyOf = (section: LayoutSection, cuts: ReadonlyMap<string, number>): string => (section.content === undefined ? section.heading : `${section.heading}\n\n${contentOf(section, cuts)}`)

function render(attempt: Attempt, maxBytes: number): string {
  const cut = attempt.sections.filter((s) => attempt.cuts.has(s.key))
  const notice =
    attempt.dropped.length > 0 || cut.length > 0
      ? budgetNotice({
          maxBytes,
          omitted: attempt.dropped.map((s) => ({ path: s.path, bytes: utf8Bytes(s.content ?? ''), outdates: s.outdates })),
          truncated: cut.map((s) => ({ path: s.path, bytes: utf8Bytes(s.content ?? ''), kept: utf8Bytes(contentOf(s, attempt.cuts)) })),
        })
      : undefined
  const parts = [notice, attempt.intro, ...attempt.sections.map((s) => bodyOf(s, attempt.cuts))]
  return framed(escapeFrameText(parts.filter((p): p is string => p !== undefined && p !== '').join('\n\n')))
}

function result(attempt: Attempt, text: string): LayoutResult {
  const cut = attempt.sections.filter((s) => attempt.cuts.has(s.key))
  const cuts = new Map(cut.map((s) => [s.key, utf8Bytes(contentOf(s, attempt.cuts))] as const))
  const mostSpecific = cut.reduce<LayoutSection | undefined>((best, s) => (best === undefined || s.rank >= best.rank ? s : best), undefined)
  const truncated = mostSpecific?.key
  return { text, retained: new Set(attempt.sections.map((s) => s.key)), cuts, truncated, keptBytes: truncated === undefined ? undefined : cuts.get(truncated), omitted: attempt.dropped.map((s) => s.key) }
}

/** Decision D7: content longer than `share × maxBytes` bytes, cut to that many bytes (code point safe). */
function shareCuts(sections: readonly LayoutSection[], maxBytes: number, share: number): Map<string, number> {
  const cuts = new Map<string, number>()
  if (!(share > 0 && share < 1)) return cuts
  const cap = Math.floor(share * maxBytes)
  for (const section of sections) {
    const content = section.content
    if (content === undefined || utf8Bytes(content) <= cap) continue
    cuts.set(section.key, longestFittingPrefix(content, (prefix) => utf8Bytes(prefix) <= cap))
  }
  return cuts
}

const only = (cuts: ReadonlyMap<string, number>, sections: readonly LayoutSection[]): Map<string, number> => new Map(sections.flatMap((s) => (cuts.has(s.key) ? [[s.key, cuts.get(s.key) ?? 0] as const] : [])))

/**
 * Lays out `sections` (render order) under `maxBytes`. The third argument is the intro (older
 * form) or the {@link LayoutOptions}.
 */
export function layoutWithinBudget(sections: readonly LayoutSection[], maxBytes: number, options?: string | LayoutOptions): LayoutResult {
  const { intro, maxFileShare, deferred = [] } = typeof options === 'string' ? { intro: options, maxFileShare: undefined, deferred: [] } : (options ?? {})
  const empty: LayoutResult = { text: '', retained: new Set(), cuts: new Map(), omitted: [...deferred, ...sections].map((s) => s.key) }
  if (!(maxBytes > 0) || !Number.isFinite(maxBytes)) return empty
  const fits = (attempt: Attempt): string | undefined => {
    const text = render({ ...attempt, dropped: [...deferred, ...attempt.dropped] }, maxBytes)
    return utf8Bytes(text) <= maxBytes ? text : undefined
  }
  const done = (attempt: Attempt, text: string): LayoutResult => result({ ...attempt, dropped: [...deferred, ...attempt.dropped] }, text)
  const whole: Attempt = { intro, sections, cuts: new Map(), dropped: [] }
  const wholeText = fits(whole)
  if (wholeText !== undefined) return done(whole, wholeText)

  const shared = shareCuts(sections, maxBytes, maxFileShare ?? 1)
  if (shared.size > 0) {
    const cutAll: Attempt = { intro, sections, cuts: shared, dropped: [] }
    const text = fits(cutAll)
    if (text !== undefined) return done(cutAll, text)
  }

  const droppable = sections
    .map((section, index) => ({ section, index }))
    .filter((entry) => entry.section.content !== undefined)
    .toSorted((a, b) => a.section.rank - b.section.rank || a.index - b.index)
    .map((entry) => entry.section)
  for (let k = 1; k < droppable.length; k++) {
    const dropped = droppable.slice(0, k)
    const kept = sections.filter((s) => !dropped.includes(s))
    const attempt: Attempt = { intro, sections: kept, cuts: only(shared, kept), dropped }
    const text = fits(attempt)
    if (text !== undefined) return done(attempt, text)
  }

  const last = droppable.at(-1)
  if (last !== undefined) {
    const dropped = droppable.slice(0, -1)
    const kept = sections.filter((s) => !dropped.includes(s))
    const content = contentOf(last, shared)
    for (const candidateIntro of intro === undefined ? [undefined] : [intro, COMPACT_INTRO]) {
      const attemptWith = (length: number): Attempt => ({ intro: candidateIntro, sections: kept, dropped, cuts: new Map([...only(shared, kept), [last.key, safeCut(content, length)]]) })
      const length = longestFittingPrefix(content, (prefix) => fits(attemptWith(prefix.length)) !== undefined)
      if (length > 0 || content === '') {
        const attempt = content === '' ? { intro: candidateIntro, sections: kept, dropped, cuts: only(shared, kept) } : attemptWith(length)
        const text = fits(attempt)
        if (text !== undefined) return done(attempt, text)
      }
    }
  }

  const withoutContent: Attempt = { intro: undefined, sections: sections.filter((s) => s.content === undefined), cuts: new Map(), dropped: droppable }
  const removalsText = fits(withoutContent)
  if (removalsText !== undefined) return done(withoutContent, removalsText)
  const noticeOnly: Attempt = { intro: undefined, sections: [], cuts: new Map(), dropped: droppable }
  const noticeText = droppable.length > 0 || deferred.length > 0 ? fits(noticeOnly) : undefined
  return noticeText === undefined ? empty : done(noticeOnly, noticeText)
}
