/**
 * Shared result building: error results, and the translation of expected fs-port failures
 * (`FsErrorShape` codes) into model-visible error text with a recovery hint. Anything that is
 * not an fs-port error is rethrown for the pipeline to contain.
 */
import type { FsErrorCode, FsErrorShape, ToolOutput, ToolRunContext } from '@dsh/contracts'

const FS_CODES: ReadonlySet<string> = new Set<FsErrorCode>([
  'FS_NOT_FOUND',
  'FS_NOT_A_FILE',
  'FS_SPECIAL_FILE',
  'FS_TOO_LARGE',
  'FS_NOT_UTF8',
  'FS_OUTSIDE_ROOTS',
  'FS_CONFLICT',
  'FS_NO_MATCH',
  'FS_AMBIGUOUS_MATCH',
  'FS_ABORTED',
  'FS_IO',
])

/** The fs-port error inside `error`, recognised by shape (any port implementation), if any. */
export function asFsError(error: unknown): FsErrorShape | undefined {
  if (!(error instanceof Error) || !('code' in error) || !('path' in error)) return undefined
  const { code, path } = error
  if (typeof code !== 'string' || !FS_CODES.has(code) || typeof path !== 'string') return undefined
  // Narrowed by the runtime checks above: `code` is one of the known codes, `path` a string.
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion
  return error as FsErrorShape
}

/** A model-visible failure. */
export function errorResult(content: string, meta?: Readonly<Record<string, unknown>>): ToolOutput {
  return meta === undefined ? { isError: true, content } : { isError: true, content, meta }
}

/** What the failing tool was doing, for the message. */
export type FsAction = 'read' | 'write' | 'edit' | 'search'

function describe(error: FsErrorShape, shown: string, action: FsAction, run: ToolRunContext): string {
  switch (error.code) {
    case 'FS_NOT_FOUND':
      return action === 'edit'
        ? `File not found: ${shown}. edit only changes existing files; use write to create it.`
        : `Not found: ${shown}. Relative paths resolve against ${run.cwd}; use glob to find the right path.`
    case 'FS_NOT_A_FILE':
      return `${shown} is not a regular file (it is a directory or a dangling link). Use glob to list files in a directory.`
    case 'FS_SPECIAL_FILE':
      return `${shown} is a FIFO, socket or device, not a regular file; it was not opened.`
    case 'FS_TOO_LARGE':
      // Advice that works at any size: edit rewrites the whole file, so bash does it; grep (rg) searches any size.
      return action === 'edit'
        ? `${shown} is too large to edit: edit reads and rewrites the whole file, up to a size limit. Change it with bash (sed -i, or a short script); grep finds the lines first.`
        : `${shown} is too large to ${action} in one piece. grep searches a file of any size (output_mode "content" shows line numbers), and bash shows a range of lines (sed -n 'A,Bp').`
    case 'FS_NOT_UTF8':
      return `${shown} is not UTF-8 text (binary, or another encoding such as UTF-16). Inspect it with bash (file, xxd | head, iconv).`
    case 'FS_OUTSIDE_ROOTS':
      return `Cannot ${action} ${shown}: it is outside the writable roots (${run.fs.writableRoots().join(', ') || 'none'}). Choose a path inside one of them.`
    case 'FS_CONFLICT':
      return `${shown} changed on disk while it was being changed. Read it again, then retry.`
    case 'FS_ABORTED':
      return `Cancelled: the ${action} of ${shown} was aborted.`
    default:
      // FS_IO, and FS_NO_MATCH / FS_AMBIGUOUS_MATCH when a tool did not word them itself.
      return `Could not ${action} ${shown}: ${error.message}`
  }
}

/**
 * Converts an expected fs failure into an error result naming `shown` (the path as the model
 * wrote it); rethrows anything else.
 */
export function fsFailure(error: unknown, shown: string, action: FsAction, run: ToolRunContext): ToolOutput {
  const fsError = asFsError(error)
  if (fsError === undefined) throw error
  return errorResult(describe(fsError, shown, action, run), { code: fsError.code, path: fsError.path })
}
