/**
 * One-line summaries of tool calls: the call's most telling argument (a command, a path, a
 * pattern) and the outcome (ok with its first meaningful line, or the error's first line). Read
 * results carry line-number gutters for the model (`   12\ttext`); summaries drop them.
 */
import type { ToolFinalOutcome } from '@dsh/contracts'
import { oneLine } from './text-safety.ts'

/** Argument keys worth showing, most telling first. */
const preferredKeys = ['command', 'file_path', 'pattern', 'glob', 'path', 'url', 'query', 'description', 'prompt', 'code']

const rank = (key: string): number => (preferredKeys.includes(key) ? preferredKeys.indexOf(key) : preferredKeys.length)

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Parses raw JSON arguments into an object, or `undefined` when they are not one. */
export function parseArguments(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw)
    return isRecord(value) ? value : undefined
  } catch {
    // Not JSON (the model sent malformed arguments): callers show the raw text instead.
    return undefined
  }
}

/** The short argument summary of a call, from its raw JSON argument text. */
export function argumentSummary(rawArguments: string, max = 80): string {
  const args = parseArguments(rawArguments)
  if (args === undefined) return oneLine(rawArguments, max)
  const strings = Object.entries(args).filter((entry): entry is [string, string] => typeof entry[1] === 'string')
  const best = strings.toSorted((a, b) => rank(a[0]) - rank(b[0]))[0]
  if (best === undefined) return oneLine(rawArguments.trim() === '{}' ? '' : rawArguments, max)
  const path = args['path']
  const where = best[0] === 'pattern' && typeof path === 'string' ? ` in ${path}` : ''
  return oneLine(`${best[1]}${where}`, max)
}

/** A line without its line-number gutter (`  12\t`, `12:`, `12|`). */
export function withoutGutter(line: string): string {
  return line.replace(/^\s*\d+(\t|: |\| ?|→)/, '')
}

/** Result summary: whether it succeeded and one line about it. */
export interface OutcomeSummary {
  readonly ok: boolean
  readonly text: string
}

const statusLabel: Record<ToolFinalOutcome['status'], string> = {
  ok: 'ok',
  failed: 'error',
  denied: 'denied',
  blocked: 'blocked',
  'invalid-arguments': 'error',
  'unknown-tool': 'error',
  cancelled: 'cancelled',
}

/** Summarises a final outcome: `ok: first line (N lines)` or `error: first line`. */
export function outcomeSummary(outcome: Pick<ToolFinalOutcome, 'content' | 'isError' | 'status'>, max = 80): OutcomeSummary {
  const lines = outcome.content.replace(/\n+$/, '').split('\n')
  const first = oneLine(withoutGutter(lines.find((line) => withoutGutter(line).trim() !== '') ?? ''), max)
  const label = outcome.isError ? statusLabel[outcome.status] : 'ok'
  const more = !outcome.isError && lines.length > 1 ? ` (${lines.length} lines)` : ''
  return { ok: !outcome.isError, text: first === '' ? `${label}${more}` : `${label}: ${first}${more}` }
}
