/**
 * Matching ledger lines against a live call. A line matches when the call's tool is one its
 * trigger names (or it names none) and at least one of its fragments matches, a fragment matching
 * when every `*`-separated piece is a case-insensitive substring of the call's target path plus
 * its command text. A trigger with only tool parts matches on the tool alone. Each line is
 * delivered at most once per session.
 */
import type { LedgerLine } from './ledger-parser.ts'

/** The call as the matcher sees it. */
export interface LedgerCall {
  readonly tool: string
  /** Target path and command text, joined. */
  readonly haystack: string
}

/** True when `line` matches `call`. */
export function lineMatches(line: LedgerLine, call: LedgerCall): boolean {
  if (line.tools.length > 0 && !line.tools.includes(call.tool.toLowerCase())) return false
  if (line.fragments.length === 0) return true
  const haystack = call.haystack.toLowerCase()
  return line.fragments.some((fragment) => {
    const pieces = fragment
      .toLowerCase()
      .split('*')
      .filter((piece) => piece !== '')
    return pieces.length > 0 && pieces.every((piece) => haystack.includes(piece))
  })
}

/** Lines that match and have not fired yet; marks them fired. */
export function takeLedgerHits(lines: readonly LedgerLine[], call: LedgerCall, fired: Set<string>): LedgerLine[] {
  const hits: LedgerLine[] = []
  for (const line of lines) {
    if (fired.has(line.text) || !lineMatches(line, call)) continue
    fired.add(line.text)
    hits.push(line)
  }
  return hits
}
