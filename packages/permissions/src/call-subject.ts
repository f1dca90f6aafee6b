/**
 * What a rule's pattern is matched against for each tool: the command of `bash`, the code of
 * `run_code`, the path of the file tools (`write`, `edit`, `read`; `glob` and `grep` search `path`,
 * default the working directory), the URL of `web_fetch`. Other tools have no subject: only a bare
 * rule (`subagent`) matches them.
 */
import { isAbsolute, resolve } from 'node:path'

/** The subject of one call. */
export type CallSubject =
  | { readonly kind: 'command'; readonly command: string }
  | { readonly kind: 'code'; readonly code: string }
  | { readonly kind: 'path'; readonly path: string }
  | { readonly kind: 'url'; readonly url: string }
  | { readonly kind: 'none' }

function stringField(args: unknown, key: string): string | undefined {
  if (typeof args !== 'object' || args === null || !Object.hasOwn(args, key)) return undefined
  const value: unknown = Object.getOwnPropertyDescriptor(args, key)?.value
  return typeof value === 'string' ? value : undefined
}

const pathFields: Readonly<Record<string, string>> = { write: 'file_path', edit: 'file_path', read: 'file_path', glob: 'path', grep: 'path' }

/** The subject of a call of `tool` with `args` in `cwd` (paths made absolute against `cwd`). */
export function callSubject(tool: string, args: unknown, cwd: string): CallSubject {
  if (tool === 'bash') {
    const command = stringField(args, 'command')
    return command === undefined ? { kind: 'none' } : { kind: 'command', command }
  }
  if (tool === 'run_code') {
    const code = stringField(args, 'code')
    return code === undefined ? { kind: 'none' } : { kind: 'code', code }
  }
  if (tool === 'web_fetch') {
    const url = stringField(args, 'url')
    return url === undefined ? { kind: 'none' } : { kind: 'url', url }
  }
  const field = Object.hasOwn(pathFields, tool) ? pathFields[tool] : undefined
  if (field === undefined) return { kind: 'none' }
  const path = stringField(args, field) ?? '.'
  return { kind: 'path', path: isAbsolute(path) ? resolve(path) : resolve(cwd, path) }
}
