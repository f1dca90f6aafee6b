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

/** One entry of the budget notice. */
export interface BudgetNoticeInput {
  readonly maxBytes: number
  readonly omitted: readonly { readonly path: string; readonly bytes: number }[]
  readonly truncated?: { readonly path: string; readonly bytes: number; readonly kept: number } | undefined
}

/** `Workspace instruction budget …` notice naming omitted and truncated paths with byte counts. */
export function budgetNotice(input: BudgetNoticeInput): string {
  const parts: string[] = []
  if (input.omitted.length > 0) parts.push(`omitted ${input.omitted.map((o) => `${o.path} (${o.bytes} bytes)`).join(', ')}`)
  if (input.truncated !== undefined) parts.push(`truncated ${input.truncated.path} to ${input.truncated.kept} of ${input.truncated.bytes} bytes`)
  return `Workspace instruction budget of ${input.maxBytes} bytes: ${parts.join('; ')}. Read an omitted or truncated file directly if you need its full text.`
}

/** Wraps an already escaped body in the frame. */
export const framed = (body: string): string => `${FRAME_OPEN}\n${body}\n${FRAME_CLOSE}`
