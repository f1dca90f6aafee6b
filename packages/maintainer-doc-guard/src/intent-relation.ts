/**
 * Whether the turn said what a call is for. Lexical and relational: the prose the model wrote
 * since the user last spoke must reach `minChars` characters and mention something the call is
 * about — the tool's name (4+ characters), the stem of a file the call names (4+ characters,
 * extension dropped), or for a shell command one of its words (4+ letters or digits). Length alone
 * never clears the gate; overlap of meaning is not attempted (paraphrase defeats it).
 */
import { basename, extname } from 'node:path'
import { isPathToken } from './shell-paths.ts'
import { stringValues } from './tool-targets.ts'

const MIN_TERM = 4

/** The terms a narration may mention to explain the call. */
export function relationTerms(tool: string, args: unknown, command: string | undefined): string[] {
  const terms = new Set<string>()
  if (tool.length >= MIN_TERM) terms.add(tool.toLowerCase())
  for (const value of stringValues(args)) {
    for (const token of value.split(/[\s"'`(),;]+/u)) {
      if (!isPathToken(token)) continue
      const name = basename(token.replaceAll('\\', '/'))
      const stem = name.slice(0, name.length - extname(name).length).toLowerCase()
      if (stem.length >= MIN_TERM) terms.add(stem)
    }
  }
  for (const word of (command ?? '').toLowerCase().match(/[a-z0-9_]+/gu) ?? []) if (word.length >= MIN_TERM) terms.add(word)
  return [...terms]
}

/** True when `prose` (of `proseChars` characters in total) explains a call with these terms. */
export function isExplained(prose: string, proseChars: number, terms: readonly string[], minChars: number): boolean {
  if (proseChars < minChars) return false
  const narration = prose.toLowerCase()
  return terms.some((term) => narration.includes(term))
}
