/**
 * The shell a hook command runs in: bash, as Claude Code runs its command hooks (`shell: "bash"`,
 * its default), so a hook file written for it — `[[ … ]]`, `source`, arrays, `$(< file)` — works
 * unchanged; `/bin/sh` only where no bash is on the hook's `PATH`. On Debian `/bin/sh` is dash,
 * where `[[` is "not found" (exit 127): run there, such a PreToolUse hook would block every call
 * as one that cannot start. bash is started with `--norc --noprofile`: its standard input is a
 * socket (Node's pipes are socket pairs), which bash takes for a remote shell and, below shell
 * level 2, answers by reading `~/.bashrc`, whose output and errors would become the hook's.
 */
import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, isAbsolute, join } from 'node:path'

/** Where the shell is looked for when `PATH` is unset. */
const FALLBACK_PATH = '/usr/local/bin:/usr/bin:/bin'

function executableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return statSync(path).isFile()
  } catch {
    // Missing or not executable here: not this one.
    return false
  }
}

/** A shell to run a command with: `file` with `flags`, then `-c COMMAND`. */
export interface HookShell {
  readonly file: string
  readonly flags: readonly string[]
}

/** The shell for hooks run with environment `env`. */
export function hookShell(env: Readonly<Record<string, string | undefined>>): HookShell {
  for (const dir of (env['PATH'] ?? FALLBACK_PATH).split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue
    const candidate = join(dir, 'bash')
    if (executableFile(candidate)) return { file: candidate, flags: ['--norc', '--noprofile'] }
  }
  return { file: '/bin/sh', flags: [] }
}
