/**
 * Every text of the catalog messages the model sees (README "What the model sees" quotes them):
 * one line per skill, the first catalog, a delta, and the budget notice naming every skill left
 * out. Skill text passes through the frame escape, so a description cannot close the frame.
 */
import { escapeFrameText, frames, isInsideRoot, relKey } from '@dsh/workspace-context'
import type { LoadedSkill } from './types.ts'

/** Whitespace `oneLine` changes: any but a single space, a double space, or a space at either end. */
const UNEVEN_SPACE = /[^\S ]| {2}|^ | $/

/** `text` with every run of whitespace one space, trimmed (tested first: most text is already so). */
const oneLine = (text: string): string => (UNEVEN_SPACE.test(text) ? text.replace(/\s+/g, ' ').trim() : text)

/** Intro of the first catalog of a session (and again after compaction). */
export const CATALOG_INTRO =
  'Skills available in this workspace. A skill is a folder with instructions for one kind of task. When a task matches a skill\'s description, call the `skill` tool with its name before you start; it returns the instructions and the files in the folder. Folders are relative to the project root unless absolute.'

/** Intro of a delta. */
export const DELTA_INTRO = 'The skills catalog changed. Skills not named here are unchanged.'

export const NEW_HEADING = 'New skills:'
export const CHANGED_HEADING = 'Changed skills (this entry replaces the earlier one):'

/** The line withdrawing skills. */
export const removedLine = (keys: readonly string[]): string => `Removed skills (no longer available; do not call them): ${keys.map((key) => escapeFrameText(oneLine(key))).join(', ')}`

/** The notice naming every skill the byte budget left out. */
export const omittedLine = (keys: readonly string[], maxBytes: number): string =>
  `Left out of the catalog to fit skills.maxCatalogBytes (${maxBytes} bytes): ${keys.map((key) => escapeFrameText(oneLine(key))).join(', ')}. They exist; call the \`skill\` tool with one of these names to see what it does.`

/** How a folder is shown: project-root-relative (`/`-separated) inside the project, else absolute. */
export function folderDisplay(folder: string, projectRoot: string): string {
  if (folder === projectRoot || !isInsideRoot(projectRoot, folder)) return folder
  const rel = relKey(projectRoot, folder)
  return rel === '.' ? folder : rel
}

/** The catalog line of one skill. */
export function catalogLine(key: string, skill: LoadedSkill, projectRoot: string): string {
  const when = skill.meta.whenToUse === undefined ? '' : ` When to use: ${oneLine(skill.meta.whenToUse)}`
  const hint = skill.meta.argumentHint === undefined ? '' : ` Arguments: ${oneLine(skill.meta.argumentHint)}`
  // Directory names may hold line breaks: the key and folder are kept on the line like the text.
  return escapeFrameText(`- ${oneLine(key)}: ${oneLine(skill.meta.description)}${when}${hint} (folder: ${oneLine(folderDisplay(skill.folder, projectRoot))})`)
}

/** What one catalog message says. */
export interface CatalogParts {
  /** True for a complete catalog (nothing delivered yet on the visible surface). */
  readonly first: boolean
  readonly added: readonly string[]
  readonly changed: readonly string[]
  readonly removed: readonly string[]
  readonly omitted: readonly string[]
  readonly maxBytes: number
}

/** The framed text of a catalog message (lines come escaped from {@link catalogLine}), or `''` when it would say nothing. */
export function renderCatalog(parts: CatalogParts): string {
  const blocks: string[] = []
  if (parts.first) {
    blocks.push(CATALOG_INTRO)
    if (parts.added.length > 0) blocks.push(parts.added.join('\n'))
  } else {
    if (parts.added.length + parts.changed.length + parts.removed.length + parts.omitted.length === 0) return ''
    blocks.push(DELTA_INTRO)
    if (parts.added.length > 0) blocks.push(`${NEW_HEADING}\n${parts.added.join('\n')}`)
    if (parts.changed.length > 0) blocks.push(`${CHANGED_HEADING}\n${parts.changed.join('\n')}`)
    if (parts.removed.length > 0) blocks.push(removedLine(parts.removed))
  }
  if (parts.omitted.length > 0) blocks.push(omittedLine(parts.omitted, parts.maxBytes))
  if (parts.first && parts.added.length === 0 && parts.omitted.length === 0) return ''
  return frames.framed(blocks.join('\n\n'))
}
