/**
 * `write`: replaces or creates a whole file through the fs port (atomic, confined to the
 * writable roots) and says whether it was created or overwritten and how many bytes it has.
 * With a {@link FileVersions} record, it refuses to replace a file whose version changed since
 * the model last read or wrote it in this session (someone else edited it meanwhile), so their
 * lines are never dropped unseen; a new file, or one the session never saw, is written as before.
 */
import type { ToolDefinition, ToolRunContext } from '@dsh/contracts'
import { z } from 'zod'
import type { FileVersions } from './file-versions.ts'
import { errorResult, fsFailure } from './tool-result.ts'

const parameters = z.strictObject({
  file_path: z.string().min(1).describe('Path of the file to write, absolute or relative to the working directory.'),
  content: z.string().describe('The complete new content of the file.'),
})

/** Arguments of `write`. */
export type WriteArgs = z.infer<typeof parameters>

/** Options of {@link createWriteTool}. */
export interface WriteToolOptions {
  /** What each session last saw of each file (kept up to date by the file-versions plugin). */
  readonly versions?: FileVersions
}

/** The refusal the model reads when the file changed since it last saw it. */
export function changedSinceSeenText(shown: string): string {
  return (
    `${shown} changed since you last read or wrote it (someone else edited it meanwhile), so it was not ` +
    'overwritten: writing it now would drop those changes. Read it again and apply your change to its ' +
    'current content (edit changes part of a file without resending it).'
  )
}

/** True when the file at `path` exists with another version than the session last saw. */
async function changedSinceSeen(run: ToolRunContext, versions: FileVersions | undefined, path: string): Promise<boolean> {
  const sessionId = run.execution.agent?.id
  const seen = sessionId === undefined ? undefined : versions?.seen(sessionId, path)
  if (seen === undefined) return false
  const now = await run.fs.stat(path, run.signal)
  return now !== undefined && now.version !== seen
}

/** The `write` tool. */
export function createWriteTool(options: WriteToolOptions = {}): ToolDefinition<WriteArgs> {
  return {
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
        if (await changedSinceSeen(run, options.versions, target.path)) return errorResult(changedSinceSeenText(shown), { code: 'CHANGED_SINCE_READ', path: target.path })
        const result = await run.fs.writeText(target.path, args.content, { signal: run.signal })
        const verb = result.created ? 'Created' : 'Overwrote'
        return {
          content: `${verb} ${shown} (${result.bytes} bytes).`,
          touched: [{ path: target.path, kind: 'write' }],
          meta: { path: target.path, created: result.created, bytes: result.bytes, version: result.version },
        }
      } catch (error) {
        return fsFailure(error, shown, 'write', run)
      }
    },
  }
}

/** `write` without version checks (no session records). */
export const writeTool: ToolDefinition<WriteArgs> = createWriteTool()
