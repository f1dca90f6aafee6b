/**
 * `read`: a window of a UTF-8 text file as numbered lines, with paging hints when the output
 * was limited. Expected failures (missing, directory, binary, too large) are error results.
 */
import { createHash } from 'node:crypto'
import type { ToolDefinition } from '@dsh/contracts'
import { z } from 'zod'
import type { LineIndexCache } from './line-index.ts'
import { readLineWindow, type LineWindow } from './line-window.ts'
import { errorResult, fsFailure } from './tool-result.ts'

/** Lines returned when `limit` is not given. */
export const READ_DEFAULT_LIMIT = 2000
/** Characters kept of a single line. */
export const READ_MAX_LINE_CHARS = 2000
/** Output budget in bytes. */
export const READ_MAX_OUTPUT_BYTES = 256 * 1024
/** Characters of one slice of a long line (`char_offset`). */
export const READ_CHAR_PAGE = 20_000

const parameters = z.strictObject({
  file_path: z.string().min(1).describe('Path of the file to read, absolute or relative to the working directory.'),
  offset: z.number().int().min(1).optional().describe('Line number to start from (1-based). Default: 1.'),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`Maximum number of lines to return. Default: ${READ_DEFAULT_LIMIT}.`),
  char_offset: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`For a line too long to show whole (minified code): return only the line at offset, from this character (1-based), ${READ_CHAR_PAGE} characters of it.`),
})

/** Past this many characters, paging a line slice by slice is slow: the cut-line note also says how to find a place in it. */
const LONG_LINE_SEARCH_CHARS = 10 * READ_CHAR_PAGE
const LONG_LINE_SEARCH = ' To go to a place in it, grep this file with output_mode "content": each match shows [characters A-B of N]; then call read with char_offset=A.'

/** Arguments of `read`. */
export type ReadArgs = z.infer<typeof parameters>

function notes(window: LineWindow): string[] {
  const last = window.first + window.lines.length - 1
  const out: string[] = []
  if (window.slice !== undefined) {
    const { from, to, length } = window.slice
    const more = to < length ? ` Call read with offset=${window.first}, char_offset=${to + 1} for the next characters.` : ''
    return [`[Line ${window.first}, characters ${from}-${to} of ${length}.${more}]`]
  }
  if (window.firstCut !== undefined) {
    const { number, length } = window.firstCut
    out.push(
      `[${window.cutLines} line(s) longer than ${READ_MAX_LINE_CHARS} characters were cut. Line ${number} shows characters 1-${READ_MAX_LINE_CHARS} of ${length}: ` +
        `call read with offset=${number}, char_offset=${READ_MAX_LINE_CHARS + 1} to page through it.${length > LONG_LINE_SEARCH_CHARS ? LONG_LINE_SEARCH : ''}]`,
    )
  }
  if (window.endedBy === 'limit') {
    out.push(`[Showing lines ${window.first}-${last}; the file continues. Call read with offset=${last + 1} to read more.]`)
  } else if (window.endedBy === 'budget') {
    out.push(
      `[Output stopped at ${READ_MAX_OUTPUT_BYTES / 1024} KiB after line ${last}. Call read with offset=${last + 1} to read more.]`,
    )
  }
  return out
}

/** Options of {@link createReadTool}. */
export interface ReadToolOptions {
  /**
   * Line positions kept between reads of unchanged files, so a page deep into a large file does
   * not stream it from the start again (`coreTools()` passes a new one). Without it every read
   * streams from the start.
   */
  readonly lineIndex?: LineIndexCache
}

/** The text of a `char_offset` past the end of its line. */
function pastLineEnd(line: number, length: number, charOffset: number): string {
  if (length === 0) return `Line ${line} is empty: there are no characters to page through. Call read with offset=${line} and no char_offset.`
  return `char_offset ${charOffset} is past the end of line ${line}, which has ${length} characters. Use a char_offset from 1 to ${length}.`
}

/** A `read` tool. */
export function createReadTool(options: ReadToolOptions = {}): ToolDefinition<ReadArgs> {
  return {
    name: 'read',
    description:
      'Reads a UTF-8 text file and returns its lines numbered from 1, each as "<number><tab><text>". ' +
      `Returns at most ${READ_DEFAULT_LIMIT} lines per call (page with offset and limit) and at most ` +
      `${READ_MAX_OUTPUT_BYTES / 1024} KiB; lines longer than ${READ_MAX_LINE_CHARS} characters are cut with a marker (page through one with char_offset). ` +
      'Files of any size can be paged. ' +
      'The number and tab are not part of the file: leave them out of old_string when editing. ' +
      'Binary and non-UTF-8 files are refused. Relative paths resolve against the working directory.',
    parameters,
    async execute(args, run) {
      const shown = args.file_path
      const offset = args.offset ?? 1
      try {
        const target = await run.fs.resolve(args.file_path, { cwd: run.cwd, signal: run.signal })
        const window = await readLineWindow(run.fs, target.path, {
          offset,
          limit: args.limit ?? READ_DEFAULT_LIMIT,
          maxLineChars: READ_MAX_LINE_CHARS,
          maxOutputBytes: READ_MAX_OUTPUT_BYTES,
          ...(args.char_offset === undefined ? {} : { charOffset: args.char_offset }),
          charPage: READ_CHAR_PAGE,
          signal: run.signal,
          ...(options.lineIndex === undefined ? {} : { index: options.lineIndex }),
        })
        if (window.binary) {
          return errorResult(`${shown} looks binary (it contains NUL characters). Inspect it with bash (file, xxd | head).`)
        }
        // `sha256`: the output shows the whole file; workspace-context counts such a read of an instruction file as its delivery.
        const digest = window.wholeText === undefined ? {} : { sha256: createHash('sha256').update(window.wholeText, 'utf8').digest('hex') }
        const meta = { path: target.path, firstLine: offset, lines: window.lines.length, endedBy: window.endedBy, ...digest }
        const touched = [{ path: target.path, kind: 'read' as const }]
        if (window.slice !== undefined && window.slice.from > window.slice.length) {
          return errorResult(pastLineEnd(window.first, window.slice.length, window.slice.from))
        }
        if (window.lines.length === 0) {
          const total = window.totalLines ?? 0
          if (total === 0) return { content: '[The file is empty.]', touched, meta }
          return errorResult(
            `Line ${offset} is past the end of ${shown}, which has ${total} line(s). Use an offset from 1 to ${total}.`,
          )
        }
        return { content: [...window.lines, ...notes(window)].join('\n'), touched, meta }
      } catch (error) {
        return fsFailure(error, shown, 'read', run)
      }
    },
  }
}

/** `read` without a line index (every read streams from the start); `coreTools()` builds one with an index. */
export const readTool: ToolDefinition<ReadArgs> = createReadTool()
