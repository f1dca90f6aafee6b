/**
 * Fitting ` · `-separated facts into a terminal width, for the banner and the status line:
 * `wrapParts` breaks between facts (never inside one unless it alone is too wide), and
 * `shortLabel` shortens a model label that names a file (`scripted:/long/path/day.json` becomes
 * `scripted:…/day.json`) or is simply long.
 */
import { truncateToWidth, visibleWidth } from '@mariozechner/pi-tui'

/** The separator between facts. */
export const separator = ' · '

/** Facts joined on as few lines as fit `width`; a fact wider than `width` is cut. */
export function wrapParts(parts: readonly string[], width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const part of parts) {
    const joined = line === '' ? part : `${line}${separator}${part}`
    if (visibleWidth(joined) <= width || line === '') line = joined
    else {
      lines.push(line)
      line = part
    }
  }
  if (line !== '') lines.push(line)
  return lines.map((text) => truncateToWidth(text, width))
}

/** A model label of at most `max` columns: a file-like label keeps its provider and file name. */
export function shortLabel(label: string, max = 28): string {
  if (visibleWidth(label) <= max) return label
  const colon = label.indexOf(':')
  const slash = label.lastIndexOf('/')
  if (colon > 0 && slash > colon) {
    const short = `${label.slice(0, colon + 1)}…${label.slice(slash)}`
    if (visibleWidth(short) <= max) return short
  }
  let cut = ''
  for (const char of label) {
    if (visibleWidth(`${cut}${char}…`) > max) break
    cut += char
  }
  return `${cut}…`
}
