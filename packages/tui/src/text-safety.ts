/**
 * Making model-, tool- and repository-supplied text safe to show: control characters (escape
 * sequences included) are removed so text can neither restyle the terminal nor move the cursor,
 * and `oneLine` flattens and shortens text for a single terminal line.
 */

/** Removes control characters except newlines and tabs (tabs become two spaces). */
export function sanitize(text: string): string {
  let out = ''
  for (const char of text) {
    const code = char.charCodeAt(0)
    if (char === '\t') out += '  '
    else if ((code < 0x20 && char !== '\n') || (code >= 0x7f && code <= 0x9f)) continue
    else out += char
  }
  return out
}

/** Sanitised, whitespace-collapsed and cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max = 80): string {
  const flat = sanitize(text).replace(/\s+/g, ' ').trim()
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`
}

/** The message of a caught value. */
export function problemText(problem: unknown): string {
  if (problem instanceof Error) return problem.message
  return typeof problem === 'string' ? problem : String(problem)
}
