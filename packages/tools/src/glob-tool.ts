/**
 * `glob`: finds files by picomatch pattern under a directory. The listing is rg's (`rg --files`:
 * ignore files honoured, hidden files included, never `.git`, links not followed), or the
 * built-in walker's when rg cannot run or the fs port is not the local disk. The pattern is
 * applied afterwards (a pattern without "/" matches the file name at any depth, as grep's glob).
 * A result that fits one page is listed newest first; a longer one in path order (code units),
 * so its pages stay put while files change and no modification time is read per match (rg's own
 * sorted listing is single-threaded). Paged with `offset`; paths relative to the working directory.
 */
import { isAbsolute, resolve } from 'node:path'
import type { ToolDefinition, ToolOutput, ToolRunContext } from '@dsh/contracts'
import { z } from 'zod'
import { bundledRipgrepPath } from './ripgrep-binary.ts'
import { ripgrepFiles } from './ripgrep-files.ts'
import { ripgrepRoot } from './ripgrep-args.ts'
import { globMatcher, globSuffix, scopeSecrets } from './search-filter.ts'
import { entryLimitNote, globNarrowing, searchScope, timeLimitNote, type SearchScope } from './search-advice.ts'
import { fallbackNotice, skipNotes } from './search-notes.ts'
import { firstInPathOrder, newestFirst } from './search-order.ts'
import { resolveSearchRoot } from './search-root.ts'
import { noSkips, type SearchToolOptions } from './search-types.ts'
import { errorResult, fsFailure } from './tool-result.ts'
import { walkTree } from './walk-tree.ts'

/** Most paths returned per page. */
export const GLOB_MAX_RESULTS = 200
/** Most directory entries the built-in walker visits. */
export const GLOB_MAX_ENTRIES = 100_000
const TIME_LIMIT_MS = 30_000

const parameters = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .describe('Glob pattern, e.g. "*.ts" (file name at any depth), "**/*.ts" or "src/**/*.{js,jsx}" (path relative to path).'),
  path: z
    .string()
    .min(1)
    .optional()
    .describe('Directory to search, absolute or relative to the working directory. Default: the working directory.'),
  offset: z.number().int().min(0).optional().describe('Skip this many matches: the next page. Default: 0.'),
})

/** Arguments of `glob`. */
export type GlobArgs = z.infer<typeof parameters>

interface Listed {
  /** Display paths (relative to the working directory, or absolute outside it). */
  readonly files: string[]
  /** The absolute path of a listed display path. */
  readonly absolute: (display: string) => string
  readonly notices: string[]
  readonly timedOut: boolean
  readonly brokenLinks: number
  readonly unreadable: number
}

async function listWithWalker(run: ToolRunContext, root: string, matches: (relative: string) => boolean, notices: string[]): Promise<Listed> {
  const fs = run.fs.localDisk?.() ?? run.fs
  const walk = await walkTree(fs, root, { signal: run.signal, maxEntries: GLOB_MAX_ENTRIES })
  const prefix = ripgrepRoot(run.cwd, root).prefix
  const files: string[] = []
  const absolutes = new Map<string, string>()
  let brokenLinks = 0
  for (const entry of walk.entries) {
    if (!matches(entry.relative)) continue
    if (entry.type === 'symlink') {
      // Links are not listed (as with rg); one whose target is missing is counted.
      if ((await fs.stat(entry.absolute, run.signal)) === undefined) brokenLinks += 1
      continue
    }
    const display = `${prefix}${entry.relative}`
    files.push(display)
    absolutes.set(display, entry.absolute)
  }
  if (!walk.complete) notices.push(entryLimitNote(GLOB_MAX_ENTRIES, 'glob', await searchScope(fs, { path: root, type: 'directory' }, run.signal)))
  return { files, absolute: (display) => absolutes.get(display) ?? display, notices, timedOut: false, brokenLinks, unreadable: walk.unreadableDirectories }
}

/** A `glob` tool; `options` choose the rg binary, the time limit and the secret-path check. */
export function createGlobTool(options: SearchToolOptions = {}): ToolDefinition<GlobArgs> {
  const limitMs = options.timeLimitMs ?? TIME_LIMIT_MS
  return {
    name: 'glob',
    description:
      'Finds files whose path matches a glob pattern under a directory and returns their paths relative to the working ' +
      `directory, ${GLOB_MAX_RESULTS} per page: most recently modified first when all matches fit on one page, otherwise in path order ` +
      '(the note names the order, the total and the offset of the next page). ' +
      'A pattern without "/" matches the file name at any depth ("*.md"); one with "/" matches the path relative to the ' +
      'searched directory ("src/**/*.ts"); "*" does not cross "/". Honours .gitignore, .ignore and git excludes, lists ' +
      'hidden files but never .git, and does not follow symbolic links.',
    parameters,
    async execute(args, run): Promise<ToolOutput> {
      if (isAbsolute(args.pattern)) {
        return errorResult(
          `The pattern must be relative to the search directory. Put the directory in path and the rest in pattern, for example path: "/repo/src", pattern: "**/*.ts".`,
        )
      }
      const shown = args.path ?? '.'
      try {
        const root = await resolveSearchRoot(run, shown, 'directory')
        if (root.isError) return root.result
        // No secret location below the root: no per-file check for tens of thousands of listed paths.
        const { isSecretPath: secret } = scopeSecrets(options, root.path)
        const matches = globMatcher(args.pattern)
        const wanted = (relative: string, absolute: string): boolean => matches(relative) && secret?.(absolute) !== true
        const disk = run.fs.localDisk !== undefined
        const binary = disk ? (options.ripgrepPath ?? bundledRipgrepPath()) : undefined
        const notices: string[] = []
        let listed: Listed | undefined
        if (binary !== undefined) {
          // Display paths only: the absolute path is made where it is needed (the secret check,
          // a one-page result's times), not for each of tens of thousands of listed files.
          const files: string[] = []
          const absolute = (display: string): string => (isAbsolute(display) ? display : resolve(run.cwd, display))
          const suffix = globSuffix(args.pattern)
          const listing = { binary, cwd: run.cwd, deadline: Date.now() + limitMs, signal: run.signal, ...(suffix === undefined ? {} : { nameSuffix: suffix }) }
          const exit = await ripgrepFiles(listing, root.path, (display, relative) => {
            if (matches(relative) && (secret === undefined || !secret(absolute(display)))) files.push(display)
            return true
          })
          if (exit.kind === 'aborted') return errorResult(`Cancelled: the search of ${shown} was aborted.`)
          if (exit.kind === 'cannot-run') notices.push(fallbackNotice(exit.reason, 'glob'))
          else {
            const unreadable = exit.kind === 'exited' ? exit.stderr.split('\n').filter((line) => line.trim() !== '').length : 0
            listed = { files, absolute, notices, timedOut: exit.kind === 'timed-out', brokenLinks: 0, unreadable }
          }
        }
        listed ??= await listWithWalker(run, root.path, (relative) => wanted(relative, `${root.path}/${relative}`), notices)
        const paged = (args.offset ?? 0) > 0 || listed.files.length > GLOB_MAX_RESULTS
        const scope = listed.timedOut || paged ? await searchScope(run.fs.localDisk?.() ?? run.fs, root, run.signal) : 'directory'
        return page(args, listed, disk, { shown, root: root.path, limitMs, scope })
      } catch (error) {
        return fsFailure(error, shown, 'search', run)
      }
    },
  }
}

function page(args: GlobArgs, listed: Listed, disk: boolean, context: { shown: string; root: string; limitMs: number; scope: SearchScope }): ToolOutput {
  // One page: newest first. More: path order, so that the pages stay put while files change.
  const byTime = listed.files.length <= GLOB_MAX_RESULTS
  const offset = args.offset ?? 0
  const total = listed.files.length
  // Path order needs only the pages up to the one asked for, not a sort of every match.
  const found = byTime ? newestFirst(listed.files, listed.absolute, (file) => file, disk) : firstInPathOrder(listed.files, offset + GLOB_MAX_RESULTS)
  const skips = { ...noSkips(), brokenLinks: listed.brokenLinks, unreadable: listed.unreadable }
  const notes = [...(listed.timedOut ? [timeLimitNote(context.limitMs, 'glob', context.scope)] : []), ...listed.notices, ...skipNotes(skips)]
  const meta = { root: context.root, matches: total, complete: !listed.timedOut }
  if (total === 0) return { content: [`No files match "${args.pattern}" (searched: ${context.shown}).`, ...notes].join('\n'), meta }
  if (offset >= total) {
    return { content: [`Offset ${offset} is past the end: there are ${total} matches. Use an offset below ${total}.`, ...notes].join('\n'), meta }
  }
  const shown = found.slice(offset, offset + GLOB_MAX_RESULTS)
  const last = offset + shown.length
  if (offset > 0 || total > GLOB_MAX_RESULTS) {
    const more = last < total ? ` Call glob with offset=${last} for the next page, or ${globNarrowing(context.scope)}.` : ''
    notes.unshift(`[Matches ${offset + 1}-${last} of ${total}, ${byTime ? 'most recently modified first' : 'in path order'}.${more}]`)
  }
  return { content: [...shown, ...notes].join('\n'), meta }
}

/** `glob` with the defaults. */
export const globTool: ToolDefinition<GlobArgs> = createGlobTool()
