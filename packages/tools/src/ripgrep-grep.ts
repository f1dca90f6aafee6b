/**
 * grep through rg in two passes: per-file counts over the whole root (small output whatever the
 * tree), filtered afterwards by the model's glob and the secret rules (so ignore rules stay in
 * force), then, for content, the JSON matches of just the files the shown window needs.
 */
import { isAbsolute, resolve } from 'node:path'
import { countArgs, displayPath, jsonArgs, ripgrepRoot, type PatternFlags, type RipgrepRoot } from './ripgrep-args.ts'
import { runRipgrep, type RipgrepExit } from './ripgrep-process.ts'
import type { FileVerdict, SecretPathCheck } from './search-filter.ts'
import type { ContentEntry, FileHit, SkipCounts } from './search-types.ts'

/** What one rg-backed step needs. */
export interface RipgrepSearch {
  readonly binary: string
  readonly cwd: string
  readonly deadline: number
  readonly signal: AbortSignal
  /** Secret locations left out of directory searches. */
  readonly isSecretPath?: SecretPathCheck
}

/** A failed run: the binary cannot run, the limit was hit, the call was aborted, or a bad pattern. */
export type RipgrepFailure =
  | { readonly kind: 'cannot-run'; readonly reason: string }
  | { readonly kind: 'timed-out' }
  | { readonly kind: 'aborted' }
  | { readonly kind: 'bad-pattern'; readonly message: string }

/** Counts messages on rg's stderr: files it could not read, and PCRE2 match-limit failures. */
export function countStderr(stderr: string, skips: SkipCounts): void {
  for (const line of stderr.split('\n')) {
    if (line.trim() === '') continue
    if (/PCRE2|match limit|backtrack/i.test(line)) skips.patternLimit += 1
    else skips.unreadable += 1
  }
}

/** The failure an rg exit stands for, undefined for a run that answered. */
export function failureOf(exit: RipgrepExit): RipgrepFailure | undefined {
  if (exit.kind === 'cannot-run' || exit.kind === 'timed-out' || exit.kind === 'aborted') return exit
  if (exit.code === 2 && /regex parse error|error parsing regex|PCRE2: error compiling|compile error/i.test(exit.stderr)) {
    // rg explains both engines' errors at length; the default engine's one-line reason is enough.
    const reason = /^error: (.+)$/m.exec(exit.stderr)?.[1] ?? /PCRE2: error compiling pattern[^\n]*/.exec(exit.stderr)?.[0] ?? exit.stderr.replace(/^rg: /, '').trim()
    return { kind: 'bad-pattern', message: reason }
  }
  return undefined
}

/**
 * Judges the paths rg prints under one root: the absolute path of a kept file, or undefined for
 * one the verdict leaves out (a `.env` file or a secret location is counted in `skips`).
 */
export function printedJudge(cwd: string, rgRoot: RipgrepRoot, verdict: (relative: string, absolute: string) => FileVerdict, skips: SkipCounts): (printed: string) => { readonly display: string; readonly absolute: string } | undefined {
  return (printed) => {
    const display = displayPath(printed)
    const absolute = isAbsolute(display) ? display : resolve(cwd, display)
    const relative = rgRoot.prefix !== '' && printed.startsWith(rgRoot.prefix) ? printed.slice(rgRoot.prefix.length) : display
    const kept = verdict(relative === '' ? display : relative, absolute)
    if (kept === 'env') skips.env += 1
    else if (kept === 'secret') skips.secret += 1
    return kept === 'keep' ? { display, absolute } : undefined
  }
}

/** Pass 1: files with matches under `root` (absolute), kept by `verdict`. */
export async function ripgrepCounts(
  search: RipgrepSearch,
  flags: PatternFlags,
  root: string,
  verdict: (relative: string, absolute: string) => FileVerdict,
  skips: SkipCounts,
): Promise<{ readonly hits: FileHit[]; readonly failure?: RipgrepFailure }> {
  const rgRoot = ripgrepRoot(search.cwd, root)
  const judge = printedJudge(search.cwd, rgRoot, verdict, skips)
  const hits: FileHit[] = []
  const exit = await runRipgrep({
    binary: search.binary,
    args: countArgs(flags, [rgRoot.arg]),
    cwd: search.cwd,
    deadline: search.deadline,
    signal: search.signal,
    onLine: (line) => {
      const nul = line.lastIndexOf(0)
      if (nul === -1) return true
      const kept = judge(line.subarray(0, nul).toString('utf8'))
      if (kept !== undefined) hits.push({ ...kept, count: Number(line.subarray(nul + 1).toString('utf8')) })
      return true
    },
  })
  const failure = failureOf(exit)
  if (failure !== undefined) return { hits, failure }
  if (exit.kind === 'exited') countStderr(exit.stderr, skips)
  return { hits }
}

interface JsonText {
  readonly text?: string
  readonly bytes?: string
}

/** rg's `{text}` or `{bytes}` (base64): invalid UTF-8 is shown as Latin-1 (windows-1252). */
function textOf(value: JsonText | undefined): { text: string; utf8: boolean } {
  if (value?.text !== undefined) return { text: value.text, utf8: true }
  const bytes = Buffer.from(value?.bytes ?? '', 'base64')
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), utf8: true }
  } catch {
    // Not UTF-8 (a Latin-1 file): decode byte for byte so the line is still readable.
    return { text: new TextDecoder('windows-1252').decode(bytes), utf8: false }
  }
}

interface JsonMatch {
  readonly type: string
  readonly data?: {
    readonly path?: JsonText
    readonly lines?: JsonText
    readonly line_number?: number
    readonly submatches?: readonly { readonly start: number }[]
  }
}

function isJsonMatch(value: unknown): value is JsonMatch {
  return typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string'
}

/** UTF-16 index of UTF-8 byte offset `byte` in `text` (rg reports byte offsets). */
function charIndex(text: string, byte: number, utf8: boolean): number {
  if (!utf8) return byte
  return Buffer.from(text, 'utf8').subarray(0, byte).toString('utf8').length
}

/** One `match` line of `rg --json`: its display path, and the entry it shows (decoded only when asked for). */
export function parseMatch(line: Buffer): { readonly display: string; readonly entry: () => ContentEntry } | undefined {
  let event: unknown
  try {
    event = JSON.parse(line.toString('utf8'))
  } catch {
    // Not a JSON line (cannot happen with --json): nothing to show from it.
    return undefined
  }
  if (!isJsonMatch(event) || event.type !== 'match' || event.data === undefined) return undefined
  const { data } = event
  const display = displayPath(textOf(data.path).text)
  return {
    display,
    entry: () => {
      const { text, utf8 } = textOf(data.lines)
      const lines = text.replace(/\r?\n$/, '').split(/\r?\n/)
      return { display, line: data.line_number ?? 0, lines, matchStart: charIndex(text, data.submatches?.[0]?.start ?? 0, utf8) }
    },
  }
}

/**
 * Pass 2: the matches of `files` (each with how many of its matches to skip and keep), in line
 * order per file, in the order of `files`.
 */
export async function ripgrepContent(
  search: RipgrepSearch,
  flags: PatternFlags,
  files: readonly { readonly hit: FileHit; readonly skip: number; readonly take: number }[],
): Promise<{ readonly entries: ContentEntry[]; readonly failure?: RipgrepFailure }> {
  const wanted = new Map(files.map((file) => [file.hit.display, { ...file, seen: 0, entries: [] as ContentEntry[] }]))
  const exit = await runRipgrep({
    binary: search.binary,
    args: jsonArgs(flags, files.map((file) => file.hit.display)),
    cwd: search.cwd,
    deadline: search.deadline,
    signal: search.signal,
    onLine: (line) => {
      const match = parseMatch(line)
      if (match === undefined) return true
      const file = wanted.get(match.display)
      if (file === undefined) return true
      file.seen += 1
      if (file.seen <= file.skip || file.entries.length >= file.take) return true
      file.entries.push(match.entry())
      return true
    },
  })
  const entries = files.flatMap((file) => wanted.get(file.hit.display)?.entries ?? [])
  const failure = failureOf(exit)
  return failure === undefined ? { entries } : { entries, failure }
}
