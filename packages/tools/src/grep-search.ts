/**
 * The built-in search loop of grep (the fallback when rg cannot run, or the fs port is not the
 * local disk): reads candidate files through the port a few at a time, tests each line with a
 * JavaScript regex, and counts the files it left out by reason. Links are not followed (as with
 * rg); a link whose target is missing is counted as a broken link. The deadline is checked
 * between files only: one catastrophic pattern on one line can still hold the event loop.
 */
import type { FileSystemPort } from '@dsh/contracts'
import { asFsError } from './tool-result.ts'
import type { ContentEntry, FileHit, SkipCounts } from './search-types.ts'

/** Files searched in parallel. */
const CONCURRENCY = 8

/** One candidate file. */
export interface Candidate {
  readonly display: string
  readonly absolute: string
  readonly type: 'file' | 'symlink'
}

type Scan = { readonly skipped: keyof SkipCounts | 'none' } | { readonly skipped?: undefined; readonly count: number; readonly entries: ContentEntry[] }

async function scanFile(fs: FileSystemPort, candidate: Candidate, regex: RegExp, options: WalkerSearchOptions): Promise<Scan> {
  if (candidate.type === 'symlink') {
    return { skipped: (await fs.stat(candidate.absolute, options.signal)) === undefined ? 'brokenLinks' : 'none' }
  }
  let text: string
  try {
    text = (await fs.readText(candidate.absolute, { signal: options.signal, maxBytes: options.maxFileBytes })).text
  } catch (error) {
    // Expected per-file failures become a counted skip by reason; anything else is rethrown.
    const code = asFsError(error)?.code
    if (code === 'FS_TOO_LARGE') return { skipped: 'tooLarge' }
    if (code === 'FS_NOT_UTF8') return { skipped: 'binary' }
    if (code === 'FS_NOT_FOUND') return { skipped: 'brokenLinks' }
    if (code === 'FS_SPECIAL_FILE' || code === 'FS_IO' || code === 'FS_NOT_A_FILE') return { skipped: 'unreadable' }
    throw error
  }
  if (text.includes('\u0000')) return { skipped: 'binary' }
  const entries: ContentEntry[] = []
  let count = 0
  const all = text.split('\n')
  if (all.at(-1) === '') all.pop()
  for (const [index, raw] of all.entries()) {
    // Test without a CRLF file's trailing \r so that `$` anchors work on those lines too.
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    const found = regex.exec(line)
    if (found === null) continue
    count += 1
    if (entries.length < options.keepPerFile) entries.push({ display: candidate.display, line: index + 1, lines: [line], matchStart: found.index })
  }
  return { count, entries }
}

/** Options of {@link searchFiles}. */
export interface WalkerSearchOptions {
  readonly maxFileBytes: number
  /** Matching lines kept per file (the rest are only counted). */
  readonly keepPerFile: number
  /** Absolute `Date.now()` time after which no further file is started. */
  readonly deadline: number
  readonly signal: AbortSignal
}

/** Searches `candidates` in order. */
export async function searchFiles(
  fs: FileSystemPort,
  candidates: readonly Candidate[],
  regex: RegExp,
  options: WalkerSearchOptions,
  skips: SkipCounts,
): Promise<{ readonly hits: FileHit[]; readonly entries: Map<string, ContentEntry[]>; readonly timedOut: boolean }> {
  const hits: FileHit[] = []
  const entries = new Map<string, ContentEntry[]>()
  for (let start = 0; start < candidates.length; start += CONCURRENCY) {
    if (Date.now() > options.deadline) return { hits, entries, timedOut: true }
    const batch = candidates.slice(start, start + CONCURRENCY)
    const scans = await Promise.all(batch.map((candidate) => scanFile(fs, candidate, regex, options)))
    for (const [index, scan] of scans.entries()) {
      if (scan.skipped !== undefined) {
        if (scan.skipped !== 'none') skips[scan.skipped] += 1
        continue
      }
      const candidate = batch[index]
      if (scan.count === 0 || candidate === undefined) continue
      hits.push({ display: candidate.display, absolute: candidate.absolute, count: scan.count })
      entries.set(candidate.display, scan.entries)
    }
  }
  return { hits, entries, timedOut: false }
}
