/**
 * A call's arguments as a Claude Code hook reads them in `tool_input`. Claude Code's file tools
 * take absolute paths only, so hook scripts written for it test and pass `file_path` as one
 * (`[[ $f == "$CLAUDE_PROJECT_DIR"/* ]]`, `prettier --write "$f"` from another directory); dsh's
 * tools also take paths relative to the session's directory. A relative `file_path` of `read`,
 * `write` or `edit`, and a relative `path` of `glob` or `grep`, is therefore given resolved
 * against the session's directory. Every other field, and every other tool's input, is as the model
 * sent it. The call's own arguments are never changed.
 */
import { isAbsolute, resolve } from 'node:path'

/** The path field of each dsh tool whose Claude Code counterpart takes an absolute path. */
const PATH_FIELD: Readonly<Record<string, string>> = { read: 'file_path', write: 'file_path', edit: 'file_path', glob: 'path', grep: 'path' }

/** `args` of dsh's tool `name` with its path field absolute (relative to `cwd`); `args` itself when nothing changes. */
export function claudeToolInput(name: string, args: unknown, cwd: string): unknown {
  const field = PATH_FIELD[name]
  if (field === undefined || typeof args !== 'object' || args === null || Array.isArray(args)) return args
  const value: unknown = Reflect.get(args, field)
  if (typeof value !== 'string' || value === '' || isAbsolute(value)) return args
  return { ...args, [field]: resolve(cwd, value) }
}
