/**
 * `--continue` (`-c`, as Claude Code spells it) of `dsh run`: the latest top-level session with a
 * turn that was started in the working directory, which the run then resumes as `--resume ID`
 * would. None there is a usage error that says so, rather than a silent new session: a script
 * that meant to continue must not lose its context unnoticed.
 */
import { latestResumableIn } from '@dsh/runtime'
import { usageError } from './cli-error.ts'
import type { CliIo } from './cli-io.ts'
import { cwdFrom } from './global-options.ts'
import { storeFor } from './session-store-for.ts'

/** The options of a run, with `resume` set from `continue`. */
export function continuedOptions<T extends { readonly continue?: boolean; readonly resume?: string; readonly cwd?: string; readonly dshHome?: string }>(io: CliIo, options: T): T {
  if (options.continue !== true) return options
  if (options.resume !== undefined) throw usageError('--continue and --resume cannot be used together')
  const cwd = cwdFrom(io, options.cwd)
  const latest = latestResumableIn(storeFor(io, options.dshHome).list(), cwd)
  if (latest === undefined) throw usageError(`--continue: no session was started in ${cwd} yet (dsh sessions list shows the stored ones); leave out --continue to start one`)
  return { ...options, resume: latest.id }
}
