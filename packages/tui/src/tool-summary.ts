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

/** The footer `bash` ends its result with (`[Exit code: 1]`, `[Terminated by signal SIGSEGV]`). */
const bashFooter = /\n*\[(?:Exit code: (\d+)|Terminated by signal (\S+))\]$/

/** A `bash` result split into its output and how the command ended (`exit 1`, `signal SIGSEGV`); the end is undefined for exit 0. */
function bashEnd(content: string): { readonly output: string; readonly failure?: string } {
  const match = bashFooter.exec(content.trimEnd())
  if (match === null) return { output: content }
  const output = content.trimEnd().slice(0, match.index)
  if (match[1] !== undefined) return match[1] === '0' ? { output } : { output, failure: `exit ${match[1]}` }
  return { output, failure: `signal ${match[2] ?? 'unknown'}` }
}

/** The first sentence of a refusal (`The bash call was not approved (…).`); the rest is advice for the model. */
const firstSentence = (text: string): string => /^.*?[.!?](?=\s|$)/s.exec(text)?.[0] ?? text

/**
 * Summarises a final outcome: `ok: first line (N lines)`, `error: first line`, or for `bash` a
 * command that exited non-zero as a failure (`exit 1: first line (N lines)`), its exit-code
 * footer not counted; a denial shows only its first sentence.
 */
export function outcomeSummary(outcome: Pick<ToolFinalOutcome, 'content' | 'isError' | 'status'>, options: { readonly tool?: string; readonly max?: number } = {}): OutcomeSummary {
  const max = options.max ?? 80
  const { output, failure } = options.tool === 'bash' && !outcome.isError ? bashEnd(outcome.content) : { output: outcome.status === 'denied' ? firstSentence(outcome.content) : outcome.content, failure: undefined }
  const lines = output.replace(/\n+$/, '').split('\n')
  const first = oneLine(withoutGutter(lines.find((line) => withoutGutter(line).trim() !== '') ?? ''), max)
  const ok = !outcome.isError && failure === undefined
  const label = failure ?? (outcome.isError ? statusLabel[outcome.status] : 'ok')
  const more = !outcome.isError && lines.length > 1 ? ` (${lines.length} lines)` : ''
  return { ok, text: first === '' ? `${label}${more}` : `${label}: ${first}${more}` }
}
