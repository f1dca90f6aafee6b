/**
 * What a tool call touches, read from its arguments: the file path of path-bearing tools
 * (`file_path`, `path`, …), the command text of shell tools (`command`, `cmd`, `script`), and
 * whether a tool's name marks it destructive (the whole words delete, remove, trash, unlink,
 * purge or wipe), which pulls it into both gates.
 */
import { isAbsolute, resolve } from 'node:path'
import { SHELL_TOOLS } from './shell-paths.ts'
import type { ShellDialect } from './shell-statements.ts'

const PATH_KEYS = ['file_path', 'path', 'filePath', 'file', 'target', 'filename'] as const
const COMMAND_KEYS = ['command', 'cmd', 'script'] as const
const DESTRUCTIVE_WORDS: ReadonlySet<string> = new Set(['delete', 'remove', 'trash', 'unlink', 'purge', 'wipe'])

function field(args: unknown, key: string): string | undefined {
  if (typeof args !== 'object' || args === null || !(key in args)) return undefined
  const value: unknown = Reflect.get(args, key)
  return typeof value === 'string' && value.trim() !== '' ? value : undefined
}

/** The raw path argument of a call, if it has one. */
export function rawPathArgument(args: unknown): string | undefined {
  for (const key of PATH_KEYS) {
    const value = field(args, key)
    if (value !== undefined) return value
  }
  return undefined
}

/** The path argument resolved against `cwd` (not link-resolved), if any. */
export function pathArgument(args: unknown, cwd: string): string | undefined {
  const raw = rawPathArgument(args)
  if (raw === undefined) return undefined
  return isAbsolute(raw) ? resolve(raw) : resolve(cwd, raw)
}

/** The dialect of a shell tool, or `undefined` for any other tool. */
export function shellDialect(tool: string): ShellDialect | undefined {
  return Object.hasOwn(SHELL_TOOLS, tool) ? SHELL_TOOLS[tool] : undefined
}

/** The command text of a shell call. */
export function commandArgument(args: unknown): string | undefined {
  for (const key of COMMAND_KEYS) {
    const value = field(args, key)
    if (value !== undefined) return value
  }
  return undefined
}

/** The words of a tool name (`snake_case`, `kebab-case`, `camelCase` split, lower-cased). */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/gu, '$1 $2')
    .split(/[^A-Za-z0-9]+/u)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase())
}

/** True for a tool whose name carries a destructive word. */
export function isDestructiveTool(name: string): boolean {
  return nameWords(name).some((word) => DESTRUCTIVE_WORDS.has(word))
}

/** Every string value in the arguments (nested objects and arrays included). */
export function stringValues(args: unknown, out: string[] = []): string[] {
  if (typeof args === 'string') out.push(args)
  else if (Array.isArray(args)) for (const item of args) stringValues(item, out)
  else if (typeof args === 'object' && args !== null) for (const value of Object.values(args)) stringValues(value, out)
  return out
}
