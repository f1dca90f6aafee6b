/**
 * `grep`: searches file contents line by line with a JavaScript regex, through the fs port.
 * Skips binary, non-UTF-8, special and over-large files (counted in a note), caps results.
 */
import type { ToolDefinition, ToolOutput } from '@dsh/contracts'
import picomatch from 'picomatch'
import { z } from 'zod'
import { compilePattern } from './regex-compile.ts'
import { searchFiles, type FileMatches } from './grep-search.ts'
import { resolveSearchRoot } from './search-root.ts'
import { errorResult, fsFailure } from './tool-result.ts'
import { walkTree, type WalkEntry } from './walk-tree.ts'

/** Most files listed (files_with_matches, count). */
export const GREP_MAX_FILES = 200
/** Most matching lines shown (content). */
export const GREP_MAX_LINES = 300
/** Characters kept of a matching line (content). */
export const GREP_MAX_LINE_CHARS = 300
/** Larger files are skipped. */
export const GREP_MAX_FILE_BYTES = 1024 * 1024
/** Most directory entries visited. */
export const GREP_MAX_ENTRIES = 100_000

const parameters = z.strictObject({
  pattern: z.string().min(1).describe('JavaScript regular expression, matched against each line, e.g. "TODO|FIXME".'),
  path: z
    .string()
    .min(1)
    .optional()
    .describe('File or directory to search, absolute or relative to the working directory. Default: the working directory.'),
  glob: z
    .string()
    .min(1)
    .optional()
    .describe('Only search files matching this glob; without "/" it matches the file name at any depth, e.g. "*.ts".'),
  case_insensitive: z.boolean().optional().describe('Ignore letter case. Default: false.'),
  output_mode: z
    .enum(['files_with_matches', 'content', 'count'])
    .optional()
    .describe('files_with_matches (default): matching file paths; content: path:line:text; count: path:count.'),
})

/** Arguments of `grep`. */
export type GrepArgs = z.infer<typeof parameters>

/**
 * The glob filter: a pattern with "/" matches the relative path, one without matches the file
 * name at any depth (picomatch's own `basename` option also rejects patterns that contain "/").
 */
function fileFilter(glob: string | undefined): (relative: string) => boolean {
  if (glob === undefined) return () => true
  const matches = picomatch(glob, { dot: true })
  if (glob.includes('/')) return matches
  return (relative) => matches(relative.slice(relative.lastIndexOf('/') + 1))
}

function cut(text: string): string {
  return text.length <= GREP_MAX_LINE_CHARS ? text : `${text.slice(0, GREP_MAX_LINE_CHARS)}… [cut]`
}

function render(mode: NonNullable<GrepArgs['output_mode']>, files: readonly FileMatches[]): { lines: string[]; note?: string } {
  if (mode === 'content') {
    const all = files.flatMap((file) => file.lines.map((line) => `${file.name}:${line.number}:${cut(line.text)}`))
    const total = files.reduce((sum, file) => sum + file.count, 0)
    const note = total > GREP_MAX_LINES ? `[Showing ${GREP_MAX_LINES} of ${total} matching lines. Narrow the pattern, path or glob.]` : undefined
    return note === undefined ? { lines: all.slice(0, GREP_MAX_LINES) } : { lines: all.slice(0, GREP_MAX_LINES), note }
  }
  const lines = files.slice(0, GREP_MAX_FILES).map((file) => (mode === 'count' ? `${file.name}:${file.count}` : file.name))
  if (files.length <= GREP_MAX_FILES) return { lines }
  return { lines, note: `[Showing ${GREP_MAX_FILES} of ${files.length} files. Narrow the pattern, path or glob.]` }
}

export const grepTool: ToolDefinition<GrepArgs> = {
  name: 'grep',
  description:
    'Searches file contents with a JavaScript regular expression, line by line, under a directory or in one file. ' +
    'output_mode "files_with_matches" (default) lists matching files; "content" shows matching lines as ' +
    'path:line:text; "count" shows path:count. Paths are relative to the searched directory. Filter files with ' +
    `glob ("*.ts" matches the file name at any depth). Binary, non-UTF-8 and files over ${GREP_MAX_FILE_BYTES / (1024 * 1024)} MiB ` +
    'are skipped, as are .git and node_modules. Results are capped; narrow path or glob when they are.',
  parameters,
  async execute(args, run): Promise<ToolOutput> {
    const compiled = compilePattern(args.pattern, args.case_insensitive === true)
    if ('error' in compiled) {
      return errorResult(
        `Invalid regular expression: ${compiled.error}. Use JavaScript regex syntax and escape literal ( ) [ ] { } . * + ? | \\ with a backslash.`,
      )
    }
    const shown = args.path ?? '.'
    try {
      const root = await resolveSearchRoot(run, shown, 'file-or-directory')
      if (root.isError) return root.result
      let candidates: readonly WalkEntry[] = [{ relative: shown, absolute: root.path, type: 'file' }]
      const notes: string[] = []
      if (root.type === 'directory') {
        const walk = await walkTree(run.fs, root.path, { signal: run.signal, maxEntries: GREP_MAX_ENTRIES })
        const wanted = fileFilter(args.glob)
        candidates = walk.entries.filter((entry) => wanted(entry.relative))
        if (!walk.complete) notes.push(`[Stopped after ${GREP_MAX_ENTRIES} directory entries; results are incomplete. Narrow path.]`)
        if (walk.unreadableDirectories > 0) notes.push(`[${walk.unreadableDirectories} subdirectories could not be listed.]`)
      }
      const mode = args.output_mode ?? 'files_with_matches'
      const search = await searchFiles(run, candidates, compiled.regex, {
        maxFileBytes: GREP_MAX_FILE_BYTES,
        maxLinesKept: mode === 'content' ? GREP_MAX_LINES : 0,
      })
      if (search.skipped > 0) {
        notes.push(`[Skipped ${search.skipped} file(s) that are binary, not UTF-8, unreadable or over ${GREP_MAX_FILE_BYTES / (1024 * 1024)} MiB.]`)
      }
      const meta = { root: root.path, files: search.files.length, skipped: search.skipped }
      if (search.files.length === 0) {
        return { content: [`No matches for /${args.pattern}/ (searched: ${shown}).`, ...notes].join('\n'), meta }
      }
      const rendered = render(mode, search.files)
      if (rendered.note !== undefined) notes.unshift(rendered.note)
      return { content: [...rendered.lines, ...notes].join('\n'), meta }
    } catch (error) {
      return fsFailure(error, shown, 'search', run)
    }
  },
}
