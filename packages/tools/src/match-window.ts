/**
 * A window of a long matching line around the match, so that a match at column 5,000 of a
 * minified file is visible: at most `width` characters, marked with "…" where cut, and the
 * character range shown.
 */

/** The shown part of `line` when it is longer than `width`; the line itself otherwise. */
export function matchWindow(line: string, matchStart: number, width: number): string {
  if (line.length <= width) return line
  const lead = Math.floor(width / 3)
  let start = Math.max(0, Math.min(matchStart - lead, line.length - width))
  let end = start + width
  // Never split a surrogate pair at either edge.
  if (start > 0 && isLow(line.charCodeAt(start))) start += 1
  if (end < line.length && isLow(line.charCodeAt(end))) end -= 1
  const head = start > 0 ? '…' : ''
  const tail = end < line.length ? '…' : ''
  return `${head}${line.slice(start, end)}${tail} [characters ${start + 1}-${end} of ${line.length}]`
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}
