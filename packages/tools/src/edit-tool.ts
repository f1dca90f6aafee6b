/**
 * `edit`: exact-text replacement in an existing file through the fs port. No match and an
 * ambiguous match are error results that say how to make the match succeed.
 */
import type { ToolDefinition, ToolRunContext } from '@dsh/contracts'
import { z } from 'zod'
import { asFsError, errorResult, fsFailure } from './tool-result.ts'

const parameters = z.strictObject({
  file_path: z.string().min(1).describe('Path of the file to edit, absolute or relative to the working directory.'),
  old_string: z.string().min(1).describe('Exact text to replace, copied from the file (without read line numbers).'),
  new_string: z.string().describe('Text to put in its place.'),
  replace_all: z
    .boolean()
    .optional()
    .describe('Replace every occurrence instead of requiring exactly one. Default: false.'),
})

/** Arguments of `edit`. */
export type EditArgs = z.infer<typeof parameters>

/** Occurrences of `needle` in the file, for the ambiguity message; undefined if it cannot be read. */
async function occurrences(run: ToolRunContext, path: string, needle: string): Promise<number | undefined> {
  try {
    const { text } = await run.fs.readText(path, { signal: run.signal })
    return text.split(needle).length - 1
  } catch (error) {
    // Only used to enrich the message; an fs failure here just leaves the count out.
    if (asFsError(error) === undefined) throw error
    return undefined
  }
}

export const editTool: ToolDefinition<EditArgs> = {
  name: 'edit',
  description:
    'Replaces exact text in an existing file. old_string must match the file exactly (whitespace, ' +
    'indentation and line endings included) and occur exactly once, unless replace_all is true, which ' +
    'replaces every occurrence. Copy old_string from a recent read of the file, without the line-number ' +
    'prefix. To create a file use write.',
  parameters,
  async execute(args, run) {
    const shown = args.file_path
    if (args.old_string === args.new_string) {
      return errorResult('old_string and new_string are identical, so there is nothing to change.')
    }
    let path: string | undefined
    try {
      const target = await run.fs.resolve(args.file_path, { cwd: run.cwd, signal: run.signal })
      path = target.path
      const edit = { oldString: args.old_string, newString: args.new_string, replaceAll: args.replace_all === true }
      const result = await run.fs.editText(target.path, edit, { signal: run.signal })
      const count = result.replacements ?? 0
      return {
        content: `Edited ${shown}: replaced ${count} occurrence${count === 1 ? '' : 's'}.`,
        touched: [{ path: target.path, kind: 'edit' }],
        meta: { path: target.path, replacements: count, bytes: result.bytes, version: result.version },
      }
    } catch (error) {
      const code = asFsError(error)?.code
      if (code === 'FS_NO_MATCH') {
        return errorResult(
          `old_string was not found in ${shown}. It must match exactly, including whitespace, indentation ` +
            'and line endings; read the file again and copy the text from it.',
          { code },
        )
      }
      if (code === 'FS_AMBIGUOUS_MATCH' && path !== undefined) {
        const count = await occurrences(run, path, args.old_string)
        const places = count === undefined ? 'several places' : `${count} places`
        return errorResult(
          `old_string matches ${places} in ${shown}. Include more surrounding lines so it matches exactly ` +
            'one place, or set replace_all to true to replace every occurrence.',
          { code },
        )
      }
      return fsFailure(error, shown, 'edit', run)
    }
  },
}
