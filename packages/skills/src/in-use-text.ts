/**
 * The texts of the in-use message (README "What the model sees" quotes them): after a compaction,
 * the instructions of the skills the model was using, read again, each under its name and folder;
 * a skill the budget leaves out, or one that is gone, is named with what to do. Skill text passes
 * through the frame escape, so a body cannot close the frame.
 */
import { escapeFrameText, frames } from '@dsh/workspace-context'

/** The opening paragraph. */
export const IN_USE_INTRO =
  'The conversation was compacted. You had called these skills before that point, most recent first; their instructions, read again now, still apply where the task needs them (call the `skill` tool again for the files in a folder):'

/** One skill read again. */
export interface InUseBlock {
  readonly key: string
  readonly folder: string
  readonly arguments: string
  readonly body: string
}

/** The block of one skill. */
export function inUseBlock(block: InUseBlock): string {
  const args = block.arguments.trim() === '' ? '' : ` (arguments: ${block.arguments.replace(/\s+/g, ' ').trim()})`
  return escapeFrameText(`Skill: ${block.key}${args}\nFolder: ${block.folder}\n\n${block.body.replace(/\s+$/, '')}`)
}

/** Skills the byte budget left out. */
export const inUseLeftOut = (keys: readonly string[], maxBytes: number): string =>
  escapeFrameText(`Left out to fit skills.maxInUseBytes (${maxBytes} bytes): ${keys.join(', ')}. Call the \`skill\` tool again with one of these names if its instructions still apply.`)

/** Skills that cannot be read again. */
export const inUseGone = (lines: readonly string[]): string => escapeFrameText(`No longer available: ${lines.join('; ')}.`)

/** The framed message text. */
export function renderInUse(parts: { readonly blocks: readonly string[]; readonly leftOut: string | undefined; readonly gone: string | undefined }): string {
  return frames.framed([IN_USE_INTRO, ...parts.blocks, ...(parts.leftOut === undefined ? [] : [parts.leftOut]), ...(parts.gone === undefined ? [] : [parts.gone])].join('\n\n'))
}
