/**
 * Path tokens of shell statements and the verbs that write or read files, in both dialects.
 * A path token is a Windows absolute path, a token starting with `./`, `../`, `/` or `~/` (or
 * their backslash forms), a token containing a path separator, or a bare name with a 1–6
 * character extension. PowerShell's comma-separated arrays (`-LiteralPath a,b`) yield one token
 * per element. Tokens resolve against the session's cwd; `~/` against the user's home.
 */
import { isAbsolute, resolve } from 'node:path'
import { expandTilde } from '@dsh/runtime'
import type { ShellDialect } from './shell-statements.ts'

/** Shell tool names the guard understands, with their dialect. */
export const SHELL_TOOLS: Readonly<Record<string, ShellDialect>> = { bash: 'posix', sh: 'posix', zsh: 'posix', pwsh: 'powershell', powershell: 'powershell', cmd: 'powershell' }

/** POSIX commands that write their operands. */
export const POSIX_WRITE_VERBS: ReadonlySet<string> = new Set(['cp', 'mv', 'rm', 'tee', 'truncate', 'patch', 'touch', 'ln', 'install', 'rmdir', 'dd', 'sed', 'perl'])

/** PowerShell cmdlets (and their common aliases) that write. */
export const POWERSHELL_WRITE_VERBS: ReadonlySet<string> = new Set([
  'set-content', 'add-content', 'clear-content', 'out-file', 'tee-object', 'set-item', 'new-item', 'copy-item', 'move-item', 'rename-item', 'remove-item',
  'sc', 'ac', 'clc', 'ni', 'cpi', 'copy', 'cp', 'mi', 'move', 'mv', 'rni', 'ren', 'ri', 'del', 'erase', 'rm', 'rd', 'rmdir', 'tee',
])

/** PowerShell cmdlets (and aliases) whose positional arguments are all paths. */
export const POWERSHELL_PATH_VERBS: ReadonlySet<string> = new Set([
  'remove-item', 'move-item', 'copy-item', 'rename-item', 'new-item', 'clear-content',
  'ri', 'del', 'erase', 'rm', 'rd', 'rmdir', 'mi', 'move', 'mv', 'cpi', 'copy', 'cp', 'rni', 'ren', 'ni', 'clc',
])

/** Commands that read files (both dialects, compared lower-cased). */
export const READ_VERBS: ReadonlySet<string> = new Set(['cat', 'head', 'tail', 'less', 'more', 'type', 'gc', 'get-content', 'select-string', 'sls', 'import-csv', 'nl'])

/** Descriptors that are not files. */
const NOT_FILES: ReadonlySet<string> = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '$null', 'nul', 'NUL'])

const WINDOWS_ABSOLUTE = /^[A-Za-z]:[\\/]/u
const EXPLICIT = /^(?:\.{1,2}[\\/]|[\\/]|~[\\/])/u
const BARE_WITH_EXTENSION = /^[\w.@+-]+\.[A-Za-z0-9]{1,6}$/u

/** True for a token that looks like a path. */
export function isPathToken(token: string): boolean {
  if (token === '' || token.startsWith('-') || /\s/u.test(token) || NOT_FILES.has(token)) return false
  if (token.includes('=') || token.startsWith('$')) return false
  return WINDOWS_ABSOLUTE.test(token) || EXPLICIT.test(token) || /[\\/]/u.test(token) || BARE_WITH_EXTENSION.test(token)
}

/**
 * True for an operand of a command that takes only paths: any word but an option (`-x`,
 * `--flag`), a variable, an assignment or a descriptor. Unlike {@link isPathToken} it accepts
 * bare names without an extension (`rm -rf .docs`).
 */
export function isFileOperand(word: string): boolean {
  const token = word.trim()
  return token !== '' && !token.startsWith('-') && !token.startsWith('$') && !token.includes('=') && !NOT_FILES.has(token)
}

/** The path tokens of some words. */
export function pathTokens(words: readonly string[], dialect: ShellDialect): string[] {
  const split = dialect === 'powershell' ? words.flatMap((word) => word.split(',')) : words
  return split.map((word) => word.trim()).filter(isPathToken)
}

/**
 * A path token made absolute: Windows paths keep their form with `/` separators; everything
 * else resolves against `cwd` (`~/` against the home).
 */
export function absoluteToken(token: string, cwd: string): string {
  if (WINDOWS_ABSOLUTE.test(token)) return token.replaceAll('\\', '/')
  const posix = token.replaceAll('\\', '/')
  const expanded = posix.startsWith('~/') ? expandTilde(posix) : posix
  return isAbsolute(expanded) ? resolve(expanded) : resolve(cwd, expanded)
}
