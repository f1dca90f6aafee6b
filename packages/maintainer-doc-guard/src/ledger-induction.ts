/**
 * Auto-induction: when a failed call of a path-bearing tool is followed by a successful call of
 * the same tool on the same target, one ledger line is appended from observed facts only: the
 * failure's own error text as the cause (first 160 characters, whitespace collapsed) and the
 * argument keys whose values changed (at most four) as the fix. Shell commands are excluded (a
 * command has no stable target). At most three lines per session; a line already in the ledger
 * (compared without its date) is not added again.
 */
import { isDeepStrictEqual } from 'node:util'

/** Lines induced per session at most. */
export const MAX_INDUCTIONS = 3
/** Characters of the error text kept. */
export const ERROR_CHARS = 160
/** Changed argument keys named at most. */
export const MAX_CHANGED_KEYS = 4

/** Field text without separators or line breaks. */
const field = (text: string): string => text.replace(/[｜|]/gu, '/').replace(/\s+/gu, ' ').trim()

const entries = (value: unknown): Map<string, unknown> => new Map(typeof value === 'object' && value !== null ? Object.entries(value) : [])

/** Keys whose values differ between two argument objects (added and removed keys included). */
export function changedKeys(before: unknown, after: unknown): string[] {
  const a = entries(before)
  const b = entries(after)
  const keys = [...new Set([...a.keys(), ...b.keys()])]
  return keys.filter((key) => !isDeepStrictEqual(a.get(key), b.get(key))).slice(0, MAX_CHANGED_KEYS)
}

/** Inputs of {@link inducedLine}. */
export interface InductionFacts {
  readonly tool: string
  /** Target as recorded in the trigger (absolute). */
  readonly target: string
  readonly error: string
  readonly changed: readonly string[]
  /** `YYYY-MM-DD`. */
  readonly date: string
}

/** The ledger line for one failure followed by success. */
export function inducedLine(facts: InductionFacts): string {
  const error = field(facts.error).slice(0, ERROR_CHARS)
  const fix = facts.changed.length === 0 ? 'the same call succeeded on retry, with no argument changed' : `the retry succeeded after changing ${facts.changed.join(', ')}`
  return `- mistake: ${facts.tool} on ${field(facts.target)} failed｜why: ${error}｜correct: ${fix} (recorded by maintainer-doc-guard)｜trigger: ${facts.tool} + ${field(facts.target)}｜${facts.date}`
}

/** A line without its trailing date field, for duplicate checks. */
export function undatedLine(line: string): string {
  return line.trim().replace(/[｜|]\s*\d{4}-\d{2}-\d{2}\s*$/u, '')
}

/** `text` with `line` appended on its own line, or `undefined` when an equal line is already there. */
export function appendLine(text: string, line: string): string | undefined {
  const key = undatedLine(line)
  if (text.split(/\r?\n/u).some((existing) => undatedLine(existing) === key)) return undefined
  const base = text === '' || text.endsWith('\n') ? text : `${text}\n`
  return `${base}${line}\n`
}
