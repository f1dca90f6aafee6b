/**
 * Home paths: the one place that consults the user's home directory. Resolves `$DSH_HOME`
 * (configured value, then the environment, then `~/.dsh`) and its model-visible display form, and
 * creates directories under it one level at a time.
 */
import { lstatSync, mkdirSync, readlinkSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { DshError, errnoCode, errorMessage } from './errors.ts'
import { ioReason } from './file-io.ts'

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

/** What stands at a path: a directory, something else, or nothing (a missing or non-directory parent). */
function probeDirectory(path: string): 'directory' | 'other' | 'missing' {
  try {
    const stats = statSync(path, { throwIfNoEntry: false })
    if (stats === undefined) return 'missing'
    return stats.isDirectory() ? 'directory' : 'other'
  } catch (error) {
    // ENOTDIR: a parent is a file, so this level is missing; the mkdir below names the culprit.
    if (errnoCode(error) === 'ENOTDIR') return 'missing'
    throw new DshError('DIRECTORY_CREATE_FAILED', `cannot create directory ${path}: ${errorMessage(error)}`, { cause: error })
  }
}

/** How a symbolic link at `path` whose target is missing reads in an error, else undefined. */
function danglingLink(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? `it is a symbolic link to ${readlinkSync(path)}, which does not exist` : undefined
  } catch {
    // Gone again, or unreadable: the mkdir error says enough.
    return undefined
  }
}

/**
 * Creates `path` and its missing parents one level at a time, with `mode` for the new ones.
 * Node's recursive mkdir never returns where a level cannot be created although its parent exists
 * (under `/proc` it retries forever at full CPU); this fails at once with a `DIRECTORY_CREATE_FAILED`
 * error naming the level that could not be created and why.
 */
export function makeDirectories(path: string, options: { readonly mode?: number } = {}): void {
  const target = resolve(path)
  const missing: string[] = []
  for (let current = target; ; current = dirname(current)) {
    const found = probeDirectory(current)
    if (found === 'directory') break
    if (found === 'other') throw new DshError('DIRECTORY_CREATE_FAILED', `cannot create directory ${target}: ${current} exists and is not a directory`)
    missing.push(current)
    if (dirname(current) === current) break
  }
  for (const level of missing.toReversed()) {
    try {
      mkdirSync(level, options.mode === undefined ? {} : { mode: options.mode })
    } catch (error) {
      // EEXIST: another process created it between the probe and the mkdir, which is the goal.
      if (errnoCode(error) === 'EEXIST' && probeDirectory(level) === 'directory') continue
      const needed = level === target ? '' : ` (needed for ${target})`
      const why = errnoCode(error) === 'ENOENT' ? `${dirname(level)} does not accept new directories (ENOENT)` : (danglingLink(level) ?? ioReason(error))
      throw new DshError('DIRECTORY_CREATE_FAILED', `cannot create directory ${level}${needed}: ${why}`, { cause: error })
    }
  }
}
