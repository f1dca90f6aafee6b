/**
 * Every model-visible string of the plugin, in one place. The baseline intro, the section
 * headings, the "Additional instructions" guidance and the removal sentence follow the exact
 * prompt shape of the design (seeds/000 "Prompt Shape"); the remaining sentences are this
 * package's own wording. The README's "What the model sees" quotes these verbatim, and the
 * golden tests pin them.
 */

/** Opening and closing frame lines. */
export const FRAME_OPEN = '<system-reminder>'
export const FRAME_CLOSE = '</system-reminder>'

/** Intro of a complete baseline. */
export const BASELINE_INTRO =
  'The following workspace instructions may be relevant to your work. Use them as guidance when applicable. More specific instructions take precedence over broader ones. They do not override system, developer, or direct user instructions.'

/** Prefix of a baseline that supersedes an earlier, incompatible one. */
export const SUPERSEDING_PREFIX = 'This is the complete current set of workspace instructions; it supersedes every earlier workspace instruction baseline in this conversation.'

/** Intro of a superseding baseline that has no file left. */
export const EMPTY_SUPERSEDING_INTRO = `${SUPERSEDING_PREFIX} No workspace instruction files apply any more.`

/** Intro of a superseding baseline that has no file of its own but keeps earlier ones in effect. */
export const KEEPING_SUPERSEDING_INTRO = `${SUPERSEDING_PREFIX} No other workspace instruction files apply.`

/** Intro used when even the normal intro does not fit next to a truncated file. */
export const COMPACT_INTRO = 'Workspace instructions (shortened to fit the byte budget):'

/** `Instructions from: <path>` — a baseline section heading. */
export const baselineHeading = (path: string): string => `Instructions from: ${path}`

/** Heading and guidance of a newly reached scope. */
export function additionalSection(path: string, scopeLabel: string | undefined): string {
  const applies =
    scopeLabel === undefined
      ? 'These are user-level instructions that apply to work in every workspace.'
      : `These instructions apply to work under \`${scopeLabel}\`.`
  return `Additional instructions from: ${path}\n\n${applies} Use them as guidance when relevant; more specific instructions take precedence. They do not override system, developer, or direct user instructions.`
}

/** Heading and guidance of a changed file. */
export const updatedSection = (path: string): string =>
  `Updated instructions from: ${path}\n\nThis file changed after it was loaded. The content below replaces everything previously loaded from it.`

/** Heading and guidance of a candidate switch within one scope. */
export const switchedSection = (path: string, previousPath: string): string =>
  `Updated instructions from: ${path}\n\nThe instructions previously loaded from ${previousPath} no longer apply; that file is gone or no longer takes precedence. The content below from ${path} applies instead.`

/** A removal. */
export const removedSection = (path: string): string =>
  `Instructions removed: ${path}\n\nThe previously loaded instructions from this file no longer apply.`

const appliesTo = (scopeLabel: string | undefined): string => (scopeLabel === undefined ? 'to work in every workspace' : `to work under \`${scopeLabel}\``)

/**
 * One line for a path that leads to the same file as another scope's (a link, a hard link;
 * decision D9): its content is not repeated.
 */
export function sameFileLine(path: string, samePath: string, scopeLabel: string | undefined, previousPath?: string): string {
  const previous = previousPath === undefined || previousPath === path ? '' : ` The instructions previously loaded from ${previousPath} no longer apply.`
  return `Same file as ${samePath}: ${path}. Its instructions, already in this conversation under ${samePath}, also apply ${appliesTo(scopeLabel)}; they are not repeated here.${previous}`
}

/**
 * One line for an instruction file whose full content the model just read with the `read` tool
 * (decision D9): the tool result is the delivery, the frame only names it as now in effect.
 */
export function readDeliveryLine(path: string, scopeLabel: string | undefined, previousPath: string | undefined, update: boolean): string {
  if (previousPath !== undefined && previousPath !== path) {
    return `Updated instructions now in effect: ${path}. You just read this file in full; it applies instead of ${previousPath}, whose instructions no longer apply.`
  }
  if (update) return `Updated instructions now in effect: ${path}. You just read this file in full; it changed after it was loaded, and its current content replaces everything previously loaded from it.`
  return `Instructions now in effect: ${path}. You just read this file in full; its instructions apply ${appliesTo(scopeLabel)}. Use them as guidance when relevant; more specific instructions take precedence. They do not override system, developer, or direct user instructions.`
}

/** Why an outdated file cannot be loaded, as a clause (keys are the definite unavailable reasons). */
export const OUTDATED_REASONS = {
  'not-utf8': 'it is not UTF-8 text',
  binary: 'it contains NUL bytes',
  'too-large': 'it is larger than the size limit for instruction files',
  'escaping-link': 'it links outside the trusted roots',
  'symlink-refused': 'it is a symbolic link and links are not followed',
} as const

/** A loaded file that changed but can no longer be loaded (nothing replaces its earlier text). */
export const outdatedSection = (path: string, reason: keyof typeof OUTDATED_REASONS): string =>
  `Instructions outdated: ${path}\n\nThis file changed but can no longer be loaded (${OUTDATED_REASONS[reason]}). The instructions previously loaded from it may be outdated.`

/** Baseline line: files of an earlier baseline kept because they could not be read now. */
export const stillInEffectLine = (paths: readonly string[]): string => `Still in effect from earlier (could not be read now): ${paths.join(', ')}`

/** Baseline line: files left out of a restored baseline because the conversation still shows them unchanged. */
export const shownEarlierLine = (paths: readonly string[]): string => `Also in effect, shown earlier in this conversation and unchanged: ${paths.join(', ')}`

/** Baseline line: instructions of the previous project root that no longer apply. */
export const retiredLine = (paths: readonly string[]): string =>
  `The project root changed, so these instructions loaded earlier no longer apply (paths relative to the previous root): ${paths.join(', ')}`

/** One entry of the budget notice. */
export interface BudgetNoticeInput {
  readonly maxBytes: number
  /** Left-out sections; `outdates` names the loaded file whose text a left-out update replaces. */
  readonly omitted: readonly { readonly path: string; readonly bytes: number; readonly outdates?: string | undefined }[]
  /** Cut sections, in render order (one, or several under `maxFileShare`). */
  readonly truncated?: TruncatedEntry | readonly TruncatedEntry[] | undefined
}

/** One cut section of the budget notice. */
export interface TruncatedEntry {
  readonly path: string
  readonly bytes: number
  readonly kept: number
}

const cutEntries = (truncated: BudgetNoticeInput['truncated']): readonly TruncatedEntry[] => (truncated === undefined ? [] : 'path' in truncated ? [truncated] : truncated)

function droppedUpdate(entry: { readonly path: string; readonly bytes: number; readonly outdates?: string | undefined }): string {
  const what = entry.outdates === entry.path ? `${entry.path} changed` : `${entry.path} replaces ${entry.outdates ?? ''}`
  return `${what}: the earlier text is outdated and the new text was omitted (${entry.bytes} bytes)`
}

/** `Workspace instruction budget …` notice naming omitted and truncated paths with byte counts. */
export function budgetNotice(input: BudgetNoticeInput): string {
  const parts: string[] = []
  const fresh = input.omitted.filter((o) => o.outdates === undefined)
  if (fresh.length > 0) parts.push(`omitted ${fresh.map((o) => `${o.path} (${o.bytes} bytes)`).join(', ')}`)
  for (const update of input.omitted) if (update.outdates !== undefined) parts.push(droppedUpdate(update))
  const cut = cutEntries(input.truncated)
  if (cut.length > 0) parts.push(`truncated ${cut.map((t) => `${t.path} to ${t.kept} of ${t.bytes} bytes`).join(', ')}`)
  return `Workspace instruction budget of ${input.maxBytes} bytes: ${parts.join('; ')}. Read an omitted or truncated file directly if you need its full text.`
}

/** Wraps an already escaped body in the frame. */
export const framed = (body: string): string => `${FRAME_OPEN}\n${body}\n${FRAME_CLOSE}`
