/**
 * Recognises a write the sandbox refused in a command's output (the OS error for a read-only
 * mount, `EROFS`, as shells and common tools print it) and tells the model what happened and how
 * the user can widen the sandbox.
 */

const readOnlyFileSystem = /read-only file system|EROFS/i

/** The note appended to a sandboxed command's result, or undefined. */
export function sandboxRefusalNote(output: string, writable: readonly string[]): string | undefined {
  if (!readOnlyFileSystem.test(output)) return undefined
  if (writable.length === 0) {
    // read-only mode: no root and no flag but the mode makes anything writable.
    return (
      '[The sandbox refused a write: the permission mode is read-only, so shell commands cannot change files (only a private temp directory, discarded afterwards, is writable). ' +
      'Answer without changing files; if changes are needed, tell the user they can allow them with --permission-mode auto-edit or full-auto.]'
    )
  }
  const roots = `writable: ${writable.join(', ')}`
  return (
    `[The sandbox refused a write outside the writable roots (${roots}). ` +
    'Write inside them instead, or ask the user to widen the sandbox: --add-dir DIR (or dsh roots add DIR) adds a writable root, ' +
    'sandbox.writable in the config file lists more directories, and --permission-mode danger-full-access runs shell commands without a sandbox.]'
  )
}
