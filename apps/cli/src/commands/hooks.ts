/**
 * `dsh hooks list` — every configured hook (config file, settings.yaml, the cwd's project files),
 * its event, matcher, command, source and trust state; problems with the files go to stderr, one
 * line each. `dsh hooks trust` pins the current content (SHA-256) of the cwd's project hook files
 * so their hooks run; a file changed afterwards is untrusted again.
 */
import { join } from 'node:path'
import { projectHookFiles } from '@dsh/hooks'
import { configFrom } from '../agent-setup.ts'
import { errLine, type CliIo } from '../cli-io.ts'
import { cwdFrom, dshHomeFrom } from '../global-options.ts'
import { hookLines, trustLines } from '../hook-lines.ts'
import { hookSetFor } from '../hook-sources.ts'

/** Options of both verbs. */
export interface HooksOptions {
  readonly dshHome?: string
  readonly cwd?: string
  readonly config?: string
  readonly json?: boolean
}

/** `dsh hooks list`. */
export function listHooks(io: CliIo, options: HooksOptions): number {
  const dshHome = dshHomeFrom(io, options.dshHome)
  const cwd = cwdFrom(io, options.cwd)
  const config = configFrom(io, options.config)
  const set = hookSetFor(io, { cwd, dshHome, config, configPath: options.config })
  for (const problem of set.problems) errLine(io, `warning: ${problem}`)
  if (options.json === true) {
    const rows = set.all.map((entry) => ({ event: entry.event, matcher: entry.matcher, command: entry.command, timeoutMs: entry.timeoutMs, source: entry.source.kind, file: entry.source.file, where: entry.where, trusted: entry.source.trusted, ...(entry.condition === undefined ? {} : { if: entry.condition.text }), ...(entry.once === true ? { once: true } : {}), ...(entry.background === true ? { async: true } : {}) }))
    io.stdout.write(`${JSON.stringify({ hooks: rows, maxStopContinues: set.maxStopContinues }, null, 2)}\n`)
    return 0
  }
  if (set.all.length === 0) {
    io.stdout.write(`no hooks configured (config file hooks:, ${join(dshHome, 'settings.yaml')} hooks:, or ${projectHookFiles(cwd).join(' / ')})\n`)
    return 0
  }
  io.stdout.write(`${hookLines(set, 'dsh hooks trust').join('\n')}\n`)
  return 0
}

/** `dsh hooks trust`. */
export function trustHooks(io: CliIo, options: HooksOptions): number {
  const dshHome = dshHomeFrom(io, options.dshHome)
  const cwd = cwdFrom(io, options.cwd)
  io.stdout.write(`${trustLines(cwd, dshHome, 'until it changes').join('\n')}\n`)
  return 0
}
