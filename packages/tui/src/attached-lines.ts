/**
 * The lines that say which `@`-mentioned files went with a prompt, under it in the chat (live, and
 * replayed from the attachment message's data): `attached: src/app.ts, docs/a.md`, then one
 * `not attached: @PATH (REASON)` per refused file, the reason cut to its first sentence.
 */
import type { AttachedFile } from '@dsh/runtime'
import { oneLine } from './text-safety.ts'

const firstSentence = (text: string): string => {
  const end = text.search(/[.;:](\s|$)/)
  return oneLine(end < 0 ? text : text.slice(0, end), 120)
}

/** The lines for `files` (none when there are none). */
export function attachedLines(files: readonly AttachedFile[]): string[] {
  const sent = files.filter((file) => file.refused === undefined).map((file) => oneLine(file.path, 120))
  const refused = files.flatMap((file) => (file.refused === undefined ? [] : [`  not attached: @${oneLine(file.path, 120)} (${firstSentence(file.refused)})`]))
  return [...(sent.length === 0 ? [] : [`  attached: ${sent.join(', ')}`]), ...refused]
}
