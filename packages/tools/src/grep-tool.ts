/**
 * `grep`: searches file contents with ripgrep (two passes, see ripgrep-grep.ts), or with the
 * built-in walker when rg cannot run or the fs port is not the local disk. Results are ordered
 * most recently modified first, paged with `offset`, paths relative to the working directory.
 */
import type { ToolDefinition, ToolOutput, ToolRunContext } from '@dsh/contracts'
import { z } from 'zod'
import { compilePattern } from './regex-compile.ts'
import { contentNote, contentWindow, filePage, GREP_MAX_FILES, GREP_MAX_LINE_CHARS, GREP_MAX_LINES, isPaged, renderEntries } from './grep-render.ts'
import { searchFiles, type Candidate } from './grep-search.ts'
import { bundledRipgrepPath } from './ripgrep-binary.ts'
import { ripgrepContent, ripgrepCounts, type RipgrepFailure, type RipgrepSearch } from './ripgrep-grep.ts'
import { ripgrepRoot } from './ripgrep-args.ts'
import { ONE_PASS_MAX_BYTES, ripgrepOnePass } from './ripgrep-matches.ts'
import { fileVerdicts, scopeSecrets } from './search-filter.ts'
import { entryLimitNote, grepNarrowing, searchScope, timeLimitNote, type SearchScope } from './search-advice.ts'
import { fallbackNotice, skipNotes, WALKER_MAX_FILE_BYTES } from './search-notes.ts'
import { newestFirst } from './search-order.ts'
import { resolveSearchRoot } from './search-root.ts'
import { noSkips, type ContentEntry, type FileHit, type SearchToolOptions, type SkipCounts } from './search-types.ts'
import { errorResult, fsFailure } from './tool-result.ts'
import { walkTree } from './walk-tree.ts'

export { GREP_MAX_FILES, GREP_MAX_LINES, GREP_MAX_LINE_CHARS }

/** Default per-call time limit. */
export const SEARCH_TIME_LIMIT_MS = 30_000
/** Most directory entries the built-in walker visits. */
export const GREP_MAX_ENTRIES = 100_000

const parameters = z.strictObject({
  pattern: z.string().min(1).describe('Regular expression (ripgrep syntax), e.g. "TODO|FIXME", "fn\\s+\\w+", "(?i)error", "[[:digit:]]+".'),
  path: z
    .string()
    .min(1)
    .optional()
    .describe('File or directory to search, absolute or relative to the working directory. Default: the working directory.'),
  glob: z
    .string()
    .min(1)
    .optional()
    .describe('Only search files matching this glob; without "/" it matches the file name at any depth, e.g. "*.ts"; with "/" the path relative to path, e.g. "src/**/*.ts".'),
  case_insensitive: z.boolean().optional().describe('Ignore letter case. Default: false.'),
  multiline: z.boolean().optional().describe('Let the pattern span lines: "\\n" matches line ends and "." matches them too. Default: false.'),
  output_mode: z
    .enum(['files_with_matches', 'content', 'count'])
    .optional()
    .describe('files_with_matches (default): matching file paths; content: path:line:text; count: path:count.'),
  offset: z.number().int().min(0).optional().describe('Skip this many results (files, or matches in content mode): the next page. Default: 0.'),
})

/** Arguments of `grep`. */
export type GrepArgs = z.infer<typeof parameters>

type Mode = NonNullable<GrepArgs['output_mode']>

/** Hits and the entries of the shown page, from either engine. */
interface Found {
  readonly hits: readonly FileHit[]
  readonly page: (hits: readonly FileHit[]) => Promise<{ entries: ContentEntry[]; timedOut: boolean }>
  readonly timedOut: boolean
  readonly notice?: string
}

async function viaRipgrep(search: RipgrepSearch, args: GrepArgs, root: { path: string; type: 'file' | 'directory' }, skips: SkipCounts, onePassMaxBytes: number): Promise<Found | RipgrepFailure> {
  const flags = { pattern: args.pattern, caseInsensitive: args.case_insensitive === true, multiline: args.multiline === true }
  const directory = root.type === 'directory'
  const verdict = fileVerdicts({ ...(args.glob === undefined ? {} : { glob: args.glob }), skipEnv: directory, ...(search.isSecretPath === undefined ? {} : { isSecretPath: search.isSecretPath }) })
  const offset = args.offset ?? 0
  const keep = directory ? verdict : () => 'keep' as const
  if (args.output_mode === 'content' && !flags.multiline) {
    // Content in one rg pass while the output is small; a larger one falls back to the two passes.
    const one = await ripgrepOnePass(search, flags, root.path, keep, skips, onePassMaxBytes)
    if (one !== 'too-large') {
      if ('failure' in one && one.failure.kind !== 'timed-out') return one.failure
      const found = 'failure' in one ? one.partial : one
      return { hits: found.hits, timedOut: 'failure' in one, page: (ordered) => Promise.resolve({ entries: found.entries(contentWindow(ordered, offset)), timedOut: false }) }
    }
  }
  const counted = await ripgrepCounts(search, flags, root.path, keep, skips)
  if (counted.failure !== undefined && counted.failure.kind !== 'timed-out') return counted.failure
  return {
    hits: counted.hits,
    timedOut: counted.failure?.kind === 'timed-out',
    page: async (ordered) => {
      const shown = await ripgrepContent(search, flags, contentWindow(ordered, offset))
      if (shown.failure !== undefined && shown.failure.kind !== 'timed-out') throw new Error(`rg failed while reading matches: ${shown.failure.kind}`)
      return { entries: shown.entries, timedOut: shown.failure?.kind === 'timed-out' }
    },
  }
}

interface WalkerCall {
  readonly run: ToolRunContext
  readonly deadline: number
  readonly notices: string[]
  readonly options: SearchToolOptions
}

async function viaWalker(call: WalkerCall, args: GrepArgs, root: { path: string; type: 'file' | 'directory' }, skips: SkipCounts): Promise<Found | { error: string }> {
  const { run, deadline, notices } = call
  const compiled = compilePattern(args.pattern, args.case_insensitive === true)
  if ('error' in compiled) return { error: compiled.error }
  const fs = run.fs.localDisk?.() ?? run.fs
  const shownRoot = ripgrepRoot(run.cwd, root.path)
  let candidates: Candidate[] = [{ display: shownRoot.arg, absolute: root.path, type: 'file' }]
  if (root.type === 'directory') {
    const walk = await walkTree(fs, root.path, { signal: run.signal, maxEntries: GREP_MAX_ENTRIES })
    const verdict = fileVerdicts({ ...(args.glob === undefined ? {} : { glob: args.glob }), skipEnv: true, ...(call.options.isSecretPath === undefined ? {} : { isSecretPath: call.options.isSecretPath }) })
    candidates = []
    for (const entry of walk.entries) {
      const kept = verdict(entry.relative, entry.absolute)
      if (kept === 'env') skips.env += 1
      else if (kept === 'secret') skips.secret += 1
      else if (kept === 'keep') candidates.push({ display: `${shownRoot.prefix}${entry.relative}`, absolute: entry.absolute, type: entry.type === 'symlink' ? 'symlink' : 'file' })
    }
    if (!walk.complete) notices.push(entryLimitNote(GREP_MAX_ENTRIES, 'grep', await searchScope(fs, root, run.signal)))
    skips.unreadable += walk.unreadableDirectories
  }
  const offset = args.offset ?? 0
  const searched = await searchFiles(fs, candidates, compiled.regex, { maxFileBytes: WALKER_MAX_FILE_BYTES, keepPerFile: offset + GREP_MAX_LINES, deadline, signal: run.signal }, skips)
  if (args.multiline === true) notices.push('[multiline is not available in the built-in search: lines were matched one at a time.]')
  return {
    hits: searched.hits,
    timedOut: searched.timedOut,
    page: async (ordered) => ({
      entries: contentWindow(ordered, offset).flatMap((want) => (searched.entries.get(want.hit.display) ?? []).slice(want.skip, want.skip + want.take)),
      timedOut: false,
    }),
  }
}

/** A `grep` tool; `options` choose the rg binary, the time limit and the secret-path check. */
export function createGrepTool(options: SearchToolOptions = {}): ToolDefinition<GrepArgs> {
  const limitMs = options.timeLimitMs ?? SEARCH_TIME_LIMIT_MS
  return {
    name: 'grep',
    description:
      'Searches file contents with ripgrep under a directory or in one file. The pattern is a regular expression in ' +
      'ripgrep syntax: (?i), \\b, [[:digit:]], \\p{L}, lookaround and backreferences work; set multiline to match across lines. ' +
      'output_mode "files_with_matches" (default) lists matching files; "content" shows matching lines as path:line:text ' +
      '(a long line as a window around the match); "count" shows path:count. Paths are relative to the working directory. ' +
      'Filter files with glob ("*.ts" matches the file name at any depth). Honours .gitignore, .ignore and git excludes; ' +
      'searches hidden files but never .git; skips binary files and .env files (name one as path to search it); does not ' +
      `follow symbolic links. Results are ordered most recently modified first, ${GREP_MAX_FILES} files or ${GREP_MAX_LINES} ` +
      'lines per page; the note names the total and the offset of the next page.',
    parameters,
    async execute(args, run): Promise<ToolOutput> {
      const shown = args.path ?? '.'
      const deadline = Date.now() + limitMs
      try {
        const root = await resolveSearchRoot(run, shown, 'file-or-directory')
        if (root.isError) return root.result
        const scoped = scopeSecrets(options, root.path)
        const skips = noSkips()
        const notices: string[] = []
        const disk = run.fs.localDisk !== undefined
        const binary = disk ? (options.ripgrepPath ?? bundledRipgrepPath()) : undefined
        let found: Found | RipgrepFailure | { error: string } | undefined
        if (binary !== undefined) {
          const search: RipgrepSearch = { binary, cwd: run.cwd, deadline, signal: run.signal, ...(scoped.isSecretPath === undefined ? {} : { isSecretPath: scoped.isSecretPath }) }
          found = await viaRipgrep(search, args, root, skips, options.onePassMaxBytes ?? ONE_PASS_MAX_BYTES)
          if ('kind' in found && found.kind === 'cannot-run') {
            notices.push(fallbackNotice(found.reason, 'grep'))
            found = undefined
          }
        }
        found ??= await viaWalker({ run, deadline, notices, options: scoped }, args, root, skips)
        if ('error' in found) {
          return errorResult(`Invalid regular expression /${args.pattern}/: ${found.error}. Escape literal ( ) [ ] { } . * + ? | \\ with a backslash.`)
        }
        if ('kind' in found) {
          if (found.kind === 'bad-pattern') {
            return errorResult(`Invalid regular expression /${args.pattern}/: ${found.message}. Use ripgrep regex syntax and escape literal ( ) [ ] { } . * + ? | \\ with a backslash.`)
          }
          return errorResult(`Cancelled: the search of ${shown} was aborted.`)
        }
        const scope = (): Promise<SearchScope> => searchScope(run.fs.localDisk?.() ?? run.fs, root, run.signal)
        return await render(args, found, skips, notices, { disk, limitMs, shown, root: root.path, scope })
      } catch (error) {
        return fsFailure(error, shown, 'search', run)
      }
    },
  }
}

/** What render needs besides the results: `scope` is asked only when advice is given. */
interface RenderContext {
  readonly disk: boolean
  readonly limitMs: number
  readonly shown: string
  readonly root: string
  readonly scope: () => Promise<SearchScope>
}

async function render(args: GrepArgs, found: Found, skips: SkipCounts, notices: readonly string[], context: RenderContext): Promise<ToolOutput> {
  const mode: Mode = args.output_mode ?? 'files_with_matches'
  const offset = args.offset ?? 0
  const hits = newestFirst(found.hits, (hit) => hit.absolute, (hit) => hit.display, context.disk)
  const tail = [...notices, ...skipNotes(skips)]
  let timedOut = found.timedOut
  const meta = { root: context.root, files: hits.length }
  let known: SearchScope | undefined
  const scope = async (): Promise<SearchScope> => (known ??= await context.scope())
  // Advice is worded for the searched path only where it is given (a listing costs a directory read).
  const narrowing = isPaged(mode, hits, offset) ? grepNarrowing(await scope()) : ''
  if (hits.length === 0) {
    if (timedOut) tail.unshift(timeLimitNote(context.limitMs, 'grep', await scope()))
    return { content: [`No matches for /${args.pattern}/ (searched: ${context.shown}).`, ...tail].join('\n'), meta }
  }
  let lines: string[]
  let note: string | undefined
  if (mode === 'content') {
    const total = hits.reduce((sum, hit) => sum + hit.count, 0)
    if (offset >= total) return { content: [`Offset ${offset} is past the end: there are ${total} matches. Use an offset below ${total}.`, ...tail].join('\n'), meta }
    const page = await found.page(hits)
    timedOut ||= page.timedOut
    lines = renderEntries(page.entries)
    note = contentNote(hits, offset, page.entries.length, narrowing)
  } else {
    if (offset >= hits.length) return { content: [`Offset ${offset} is past the end: there are ${hits.length} files. Use an offset below ${hits.length}.`, ...tail].join('\n'), meta }
    ;({ lines, note } = filePage(mode, hits, offset, narrowing))
  }
  if (timedOut) tail.unshift(timeLimitNote(context.limitMs, 'grep', await scope()))
  return { content: [...lines, ...(note === undefined ? [] : [note]), ...tail].join('\n'), meta }
}

/** `grep` with the defaults. */
export const grepTool: ToolDefinition<GrepArgs> = createGrepTool()
