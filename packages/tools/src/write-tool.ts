/**
 * `write`: replaces or creates a whole file through the fs port (atomic, confined to the
 * writable roots) and says whether it was created or overwritten and how many bytes it has.
 */
import type { ToolDefinition } from '@dsh/contracts'
import { z } from 'zod'
import { fsFailure } from './tool-result.ts'

const parameters = z.strictObject({
  file_path: z.string().min(1).describe('Path of the file to write, absolute or relative to the working directory.'),
  content: z.string().describe('The complete new content of the file.'),
})

/** Arguments of `write`. */
export type WriteArgs = z.infer<typeof parameters>

export const writeTool: ToolDefinition<WriteArgs> = {
  name: 'write',
  description:
    'Writes a file with the given content, replacing the whole file if it exists and creating missing ' +
    'parent directories. The write is atomic. Only paths inside the writable roots can be written. ' +
    'To change part of an existing file prefer edit, which does not resend the whole file.',
  parameters,
  async execute(args, run) {
    const shown = args.file_path
    try {
      const target = await run.fs.resolve(args.file_path, { cwd: run.cwd, signal: run.signal })
      const result = await run.fs.writeText(target.path, args.content, { signal: run.signal })
      const verb = result.created ? 'Created' : 'Overwrote'
      return {
        content: `${verb} ${shown} (${result.bytes} bytes).`,
        touched: [{ path: target.path, kind: 'write' }],
        meta: { path: target.path, created: result.created, bytes: result.bytes },
      }
    } catch (error) {
      return fsFailure(error, shown, 'write', run)
    }
  },
}
