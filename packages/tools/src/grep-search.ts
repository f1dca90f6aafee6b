/**
 * The search loop of grep: reads candidate files through the fs port (a few at a time, results
 * kept in candidate order), tests each line, and counts files it had to skip.
 */
import type { ToolRunContext } from '@dsh/contracts'
import { asFsError } from './tool-result.ts'
import type { WalkEntry } from './walk-tree.ts'

/** Matches in one file. */
export interface FileMatches {
  /** Path as shown to the model. */
  readonly name: string
  /** Matching lines in this file. */
  readonly count: number
  /** Kept matching lines (up to the global budget). */
  readonly lines: readonly { readonly number: number; readonly text: string }[]
}

/** Files searched in parallel. */
const CONCURRENCY = 8

/** Codes that mean "not a searchable text file": skipped and counted, not fatal. */
const SKIPPABLE = new Set(['FS_TOO_LARGE', 'FS_NOT_UTF8', 'FS_SPECIAL_FILE', 'FS_NOT_FOUND', 'FS_IO'])

type Scan = { readonly skipped: true } | { readonly skipped: false; readonly count: number; readonly lines: { number: number; text: string }[] }

async function scanFile(run: ToolRunContext, path: string, regex: RegExp, maxFileBytes: number, keep: number): Promise<Scan> {
  let text: string
  try {
    text = (await run.fs.readText(path, { signal: run.signal, maxBytes: maxFileBytes })).text
  } catch (error) {
    // Binary, huge, special, vanished or unreadable files are reported as a skipped count.
    const code = asFsError(error)?.code
    if (code === 'FS_NOT_A_FILE') return { skipped: false, count: 0, lines: [] } // a link to a directory
    if (code !== undefined && SKIPPABLE.has(code)) return { skipped: true }
    throw error
  }
  if (text.includes('\u0000')) return { skipped: true }
  const lines: { number: number; text: string }[] = []
  let count = 0
  const all = text.split('\n')
  if (all.at(-1) === '') all.pop()
  for (const [index, raw] of all.entries()) {
    // Test without a CRLF file's trailing \r so that `$` anchors work on those lines too.
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (!regex.test(line)) continue
    count += 1
    if (lines.length < keep) lines.push({ number: index + 1, text: line })
  }
  return { skipped: false, count, lines }
}

/** Searches `candidates` in order; `maxLinesKept` bounds the lines kept over all files. */
export async function searchFiles(
  run: ToolRunContext,
  candidates: readonly WalkEntry[],
  regex: RegExp,
  options: { readonly maxFileBytes: number; readonly maxLinesKept: number },
): Promise<{ readonly files: readonly FileMatches[]; readonly skipped: number }> {
  const files: FileMatches[] = []
  let skipped = 0
  let kept = 0
  for (let start = 0; start < candidates.length; start += CONCURRENCY) {
    const batch = candidates.slice(start, start + CONCURRENCY)
    const budget = Math.max(0, options.maxLinesKept - kept)
    const scans = await Promise.all(batch.map((entry) => scanFile(run, entry.absolute, regex, options.maxFileBytes, budget)))
    for (const [index, scan] of scans.entries()) {
      if (scan.skipped) {
        skipped += 1
        continue
      }
      if (scan.count === 0) continue
      const lines = scan.lines.slice(0, Math.max(0, options.maxLinesKept - kept))
      kept += lines.length
      files.push({ name: batch[index]?.relative ?? '', count: scan.count, lines })
    }
  }
  return { files, skipped }
}
