/**
 * One-line summaries of tool calls for the chat: the call's most telling argument (a path, a
 * command, a pattern) and the outcome (ok / error with its first line, or a line count). Every
 * summary is sanitised and shortened so a tool call never takes more than one terminal line.
 */
import type { ToolFinalOutcome } from '@dsh/contracts'
import { sanitize } from './ansi.ts'

/** Argument keys worth showing, most telling first. */
const preferredKeys = ['command', 'file_path', 'pattern', 'glob', 'path', 'url', 'query', 'description', 'prompt', 'code']

const rank = (key: string): number => (preferredKeys.includes(key) ? preferredKeys.indexOf(key) : preferredKeys.length)

/** Shortens to `max` characters with an ellipsis, on one line. */
export function oneLine(text: string, max = 80): string {
  const flat = sanitize(text).replace(/\s+/g, ' ').trim()
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function parseObject(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw)
    return isRecord(value) ? value : undefined
  } catch {
    // Not JSON (the model sent malformed arguments): the caller shows the raw text instead.
    return undefined
  }
}

/** The short argument summary of a call, from its raw JSON argument text. */
export function argumentSummary(rawArguments: string, max = 80): string {
  const args = parseObject(rawArguments)
  if (args === undefined) return oneLine(rawArguments, max)
  const strings = Object.entries(args).filter((entry): entry is [string, string] => typeof entry[1] === 'string')
  const best = strings.toSorted((a, b) => rank(a[0]) - rank(b[0]))[0]
  if (best === undefined) return oneLine(rawArguments.trim() === '{}' ? '' : rawArguments, max)
  const path = args['path']
  const where = best[0] === 'pattern' && typeof path === 'string' ? ` in ${path}` : ''
  return oneLine(`${best[1]}${where}`, max)
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

/** Summarises a final outcome: `ok: first line (+N lines)` or `error: first line`. */
export function outcomeSummary(outcome: ToolFinalOutcome): OutcomeSummary {
  const lines = outcome.content.replace(/\n+$/, '').split('\n')
  const first = oneLine(lines.find((line) => line.trim() !== '') ?? '')
  const label = outcome.isError ? statusLabel[outcome.status] : 'ok'
  const more = !outcome.isError && lines.length > 1 ? ` (${lines.length} lines)` : ''
  return { ok: !outcome.isError, text: first === '' ? `${label}${more}` : `${label}: ${first}${more}` }
}
