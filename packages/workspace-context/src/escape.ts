/**
 * Frame escaping. Every model-visible string this plugin renders (file content, paths, scopes,
 * budget text) passes through `escapeFrameText` before bytes are counted, so nothing inside can
 * open or close a `system-reminder` frame. Matching is case-insensitive and tolerates whitespace
 * and invisible format characters inside the tag; the escape inserts one backslash after `<`
 * (`</system-reminder>` becomes `<\/system-reminder>`). Existing backslashes at that position get
 * one more, so `unescapeFrameText` restores the input exactly.
 */

const INVISIBLE = '[\\u00AD\\u200B-\\u200F\\u2060\\uFEFF]*'
const GAP = `(?:\\s|${INVISIBLE.slice(0, -1)})*`
const WORD = 'system-reminder'.split('').join(INVISIBLE)
const TAG = new RegExp(`<(\\\\*)(${GAP}\\/?${GAP}${WORD})`, 'giu')
const ESCAPED = new RegExp(`<\\\\(\\\\*)(${GAP}\\/?${GAP}${WORD})`, 'giu')

/** Neutralises every opening, closing or self-closing `system-reminder` tag. */
export function escapeFrameText(text: string): string {
  // Every tag starts with `<`: text without one has nothing to escape (most text; the scan is cheap).
  if (!text.includes('<')) return text
  return text.replace(TAG, (_match, slashes: string, rest: string) => `<\\${slashes}${rest}`)
}

/** Inverse of {@link escapeFrameText}. */
export function unescapeFrameText(text: string): string {
  return text.replace(ESCAPED, (_match, slashes: string, rest: string) => `<${slashes}${rest}`)
}
