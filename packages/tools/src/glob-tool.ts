/**
 * `glob`: finds files by picomatch pattern under a directory, newest first, capped.
 * Modification times come from `node:fs` because the fs port's `FsInfo` carries no mtime; on
 * a port that is not the local disk the order falls back to path order. A link that loops
 * (`ELOOP`: it points at itself, or two links at each other) is skipped and counted in a note.
 */
import { statSync } from 'node:fs'
import { isAbsolute } from 'node:path'
import type { ToolDefinition } from '@dsh/contracts'
import picomatch from 'picomatch'
import { z } from 'zod'
import { errorResult, fsFailure } from './tool-result.ts'
import { walkTree } from './walk-tree.ts'
import { resolveSearchRoot } from './search-root.ts'

/** Most paths returned. */
export const GLOB_MAX_RESULTS = 200
/** Most directory entries visited. */
export const GLOB_MAX_ENTRIES = 100_000

const parameters = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .describe('Glob pattern relative to the search directory, for example "**/*.ts" or "src/**/*.{js,jsx}".'),
  path: z
    .string()
    .min(1)
    .optional()
    .describe('Directory to search, absolute or relative to the working directory. Default: the working directory.'),
})

/** Arguments of `glob`. */
export type GlobArgs = z.infer<typeof parameters>

/** The modification time used for ordering, or `loop` for a link that never reaches a node. */
function mtimeOf(path: string): number | 'loop' {
  try {
    return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0
  } catch (error) {
    if (errnoOf(error) === 'ELOOP') return 'loop'
    // Unreadable (EACCES on a link target's directory, a race): it only sorts last; nothing is lost.
    return 0
  }
}

function errnoOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined
}

function loopNote(count: number): string {
  return count === 1 ? '[Skipped 1 symbolic link that loops (it never reaches a file).]' : `[Skipped ${count} symbolic links that loop (they never reach a file).]`
}

export const globTool: ToolDefinition<GlobArgs> = {
  name: 'glob',
  description:
    'Finds files whose path matches a glob pattern (for example "**/*.ts" or "src/**/*.{js,jsx}") under a ' +
    `directory and returns their paths relative to it, newest first, at most ${GLOB_MAX_RESULTS}. "*" does not ` +
    'cross "/"; names starting with "." match only when the pattern spells the dot. .git and node_modules ' +
    'are skipped and linked directories are not followed.',
  parameters,
  async execute(args, run) {
    if (isAbsolute(args.pattern)) {
      return errorResult(
        `The pattern must be relative to the search directory. Put the directory in path and the rest in pattern, for example path: "/repo/src", pattern: "**/*.ts".`,
      )
    }
    const shown = args.path ?? '.'
    try {
      const root = await resolveSearchRoot(run, shown, 'directory')
      if (root.isError) return root.result
      const walk = await walkTree(run.fs, root.path, { signal: run.signal, maxEntries: GLOB_MAX_ENTRIES })
      const matches = picomatch(args.pattern, { dot: false })
      const timed = walk.entries.filter((entry) => matches(entry.relative)).map((entry) => ({ relative: entry.relative, mtime: mtimeOf(entry.absolute) }))
      const found = timed.flatMap((match) => (match.mtime === 'loop' ? [] : [{ relative: match.relative, mtime: match.mtime }])).toSorted((a, b) => b.mtime - a.mtime || (a.relative < b.relative ? -1 : 1))
      const loops = timed.length - found.length
      const notes: string[] = []
      if (found.length > GLOB_MAX_RESULTS) {
        notes.push(`[Showing ${GLOB_MAX_RESULTS} of ${found.length} matches, newest first. Use a narrower pattern or path to see the rest.]`)
      }
      if (!walk.complete) notes.push(`[Stopped after ${GLOB_MAX_ENTRIES} directory entries; results are incomplete. Narrow path.]`)
      if (walk.unreadableDirectories > 0) notes.push(`[${walk.unreadableDirectories} subdirectories could not be listed.]`)
      if (loops > 0) notes.push(loopNote(loops))
      const meta = { root: root.path, matches: found.length, complete: walk.complete, loops }
      if (found.length === 0) {
        return { content: [`No files match "${args.pattern}" (searched: ${shown}).`, ...notes].join('\n'), meta }
      }
      const lines = found.slice(0, GLOB_MAX_RESULTS).map((match) => match.relative)
      return { content: [...lines, ...notes].join('\n'), meta }
    } catch (error) {
      return fsFailure(error, shown, 'search', run)
    }
  },
}
