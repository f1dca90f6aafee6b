/**
 * Home paths: the one place that consults the user's home directory. Resolves `$DSH_HOME`
 * (configured value, then the environment, then `~/.dsh`) and its model-visible display form.
 */
import { homedir } from 'node:os'
import { isAbsolute, join, resolve } from 'node:path'

/** Inputs for resolving the dsh home. */
export interface DshHomeOptions {
  /** Explicit value (`--dsh-home`, config); wins when non-blank. */
  readonly configured?: string | undefined
  /** Environment to read `DSH_HOME` from. */
  readonly env: Readonly<Record<string, string | undefined>>
  /** Home directory override (tests); defaults to the OS home. */
  readonly home?: string
}

/** The user's home directory. */
export function userHome(override?: string): string {
  return override ?? homedir()
}

/** Expands a leading `~` or `~/` against the user's home. */
export function expandTilde(path: string, home?: string): string {
  if (path === '~') return userHome(home)
  if (path.startsWith('~/')) return join(userHome(home), path.slice(2))
  return path
}

/** The default home, `~/.dsh`, resolved. */
export function defaultDshHome(home?: string): string {
  return join(userHome(home), '.dsh')
}

/** Resolves the dsh home to an absolute path. */
export function resolveDshHome(options: DshHomeOptions): string {
  const configured = options.configured?.trim()
  const fromEnv = options.env['DSH_HOME']?.trim()
  const chosen = configured || fromEnv || defaultDshHome(options.home)
  const expanded = expandTilde(chosen, options.home)
  return isAbsolute(expanded) ? resolve(expanded) : resolve(expanded)
}

/** Model-visible name of the home: `~/.dsh` for the default, `$DSH_HOME` otherwise. */
export function dshHomeDisplay(resolvedHome: string, home?: string): string {
  return resolve(resolvedHome) === resolve(defaultDshHome(home)) ? '~/.dsh' : '$DSH_HOME'
}
