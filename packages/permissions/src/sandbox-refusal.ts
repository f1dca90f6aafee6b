/**
 * Recognises a write the sandbox refused in a command's output (the OS errors for a read-only
 * mount, `EROFS`, and for removing or renaming a file bound read-only, `EBUSY`, as shells and
 * common tools print them) and tells the model what happened and what it can do: a protected
 * file inside the roots (named in the output) needs the write tool or the user; a write outside
 * the roots needs a wider sandbox.
 */
import { relative } from 'node:path'

const readOnlyFileSystem = /read-only file system|EROFS/i
const busy = /device or resource busy|EBUSY/i

/** What the launch kept read-only inside its writable roots, to find their names in the output. */
export interface RefusalContext {
  /** The writable roots of the launch. */
  readonly writable: readonly string[]
  /** The launch's working directory. */
  readonly cwd?: string
  /** Files and directories bound read-only inside the roots. */
  readonly protectedInside?: readonly string[]
}

/** The protected paths the output names (absolute, or relative to the working directory or a root). */
function namedProtected(output: string, context: RefusalContext): string[] {
  const named: string[] = []
  for (const path of context.protectedInside ?? []) {
    const spellings = [path, ...[context.cwd, ...context.writable].filter((base) => base !== undefined).map((base) => relative(base, path))]
    if (spellings.some((spelling) => spelling !== '' && !spelling.startsWith('..') && (output.includes(`'${spelling}'`) || output.includes(`${spelling}:`) || output.includes(`"${spelling}"`) || output.includes(`${spelling} `)))) named.push(path)
  }
  return named
}

/** The note appended to a sandboxed command's result, or undefined. */
export function sandboxRefusalNote(output: string, ctx: RefusalContext): string | undefined {
  const refused = readOnlyFileSystem.test(output)
  if (!refused && !busy.test(output)) return undefined
  const writable = ctx.writable
  if (writable.length === 0 && refused) {
    // read-only mode: no root and no flag but the mode makes anything writable.
    return (
      '[The sandbox refused a write: the permission mode is read-only, so shell commands cannot change files (only a private temp directory, discarded afterwards, is writable). ' +
      'Answer without changing files; if changes are needed, tell the user they can allow them with --permission-mode auto-edit or full-auto.]'
    )
  }
  const named = namedProtected(output, ctx)
  if (named.length > 0) {
    return (
      `[The sandbox refused to change ${named.join(', ')}: inside the writable roots, the files that programs outside the sandbox run later are read-only to shell commands ` +
      '(git config and hooks, .dsh*, .claude, .vscode, .idea, .envrc, .mcp.json, and the executable files of the repository). ' +
      'A git command that stopped on one ("unable to unlink", "Device or resource busy") may have left the work tree partly changed: check git status. ' +
      'To change such a file, use the write or edit tool (the user is asked), or ask the user to run the command.]'
    )
  }
  if (!refused) return undefined
  const roots = `writable: ${writable.join(', ')}`
  return (
    `[The sandbox refused a write outside the writable roots (${roots}). ` +
    'Write inside them instead, or ask the user to widen the sandbox: --add-dir DIR (or dsh roots add DIR) adds a writable root, ' +
    'sandbox.writable in the config file lists more directories, and --permission-mode danger-full-access runs shell commands without a sandbox.]'
  )
}
