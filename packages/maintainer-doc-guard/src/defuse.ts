/**
 * Text hygiene for everything copied into the system prompt from outside the package (the quoted
 * instruction, document names and content, title and intro overrides):
 * - `{{` and `}}` are split (`{ {`, `} }`) so the prompt's `{{variable}}` interpolation, which
 *   throws on an unregistered name, can never be triggered by user or repository text;
 * - a document line that could pass for a frame line (`--- begin …` / `--- end …`, indented or
 *   not) gets a backslash before its dashes, so document text cannot close or open a frame.
 */

/** Splits every `{{` and `}}`. Idempotent. */
export function defuseBraces(text: string): string {
  let out = text
  // Repeated until stable: `{{{` becomes `{ {{` after one pass.
  while (out.includes('{{') || out.includes('}}')) out = out.replaceAll('{{', '{ {').replaceAll('}}', '} }')
  return out
}

const FRAME_LIKE = /^([ \t]*)(\\*)(---\s*(?:begin|end)\b)/gimu

/** Escapes lines of document text that look like a frame line (indented ones included). */
export function escapeFrameLines(text: string): string {
  return text.replace(FRAME_LIKE, (_match, indent: string, slashes: string, rest: string) => `${indent}\\${slashes}${rest}`)
}

/** Clips `text` to `max` characters with `marker` appended when it was cut. */
export function clip(text: string, max: number, marker: string): { readonly text: string; readonly clipped: boolean } {
  if (text.length <= max) return { text, clipped: false }
  let end = Math.max(0, max)
  // Never split a surrogate pair.
  const code = text.charCodeAt(end - 1)
  if (end > 0 && code >= 0xd800 && code <= 0xdbff) end -= 1
  return { text: `${text.slice(0, end).trimEnd()}${marker}`, clipped: true }
}
