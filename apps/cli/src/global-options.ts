/**
 * Options shared by every command: the dsh home and the working directory.
 */
import { realpathSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { resolveDshHome, errnoCode, errorMessage } from '@dsh/runtime'
import { usageError } from './cli-error.ts'
import type { CliIo } from './cli-io.ts'

/** Resolves `--dsh-home` / `$DSH_HOME` / `~/.dsh`. */
export function dshHomeFrom(io: CliIo, configured: string | undefined): string {
  return resolveDshHome({ configured, env: io.env })
}

/** Resolves and checks `--cwd` (default: the invocation directory). */
export function cwdFrom(io: CliIo, value: string | undefined): string {
  const path = resolve(io.cwd, value ?? '.')
  let isDirectory = false
  try {
    isDirectory = statSync(path).isDirectory()
  } catch (error) {
    throw usageError(`--cwd ${path}: ${errnoCode(error) === 'ENOENT' ? 'no such directory' : errorMessage(error)}`)
  }
  if (!isDirectory) throw usageError(`--cwd ${path}: not a directory`)
  return realpathSync(path)
}
