/**
 * `dsh context [--cwd DIR] [--json]`: the instruction baseline a new session in DIR would get,
 * with a report of every candidate examined; `dsh context why PATH`: which instruction files
 * apply to work on PATH, in order, and why.
 */
import { createLocalFileSystem } from '@dsh/fs-local'
import { explainPath, formatContextReport, formatExplanation, inspectContext } from '@dsh/workspace-context'
import type { CliIo } from '../cli-io.ts'
import { configFrom } from '../agent-setup.ts'
import { cwdFrom, dshHomeFrom } from '../global-options.ts'
import { instructionConfig } from '../instruction-config.ts'

/** Options of both forms. */
export interface ContextOptions {
  readonly dshHome?: string
  readonly cwd?: string
  readonly config?: string
  readonly json?: boolean
}

function prepare(io: CliIo, options: ContextOptions) {
  const dshHome = dshHomeFrom(io, options.dshHome)
  const cwd = cwdFrom(io, options.cwd)
  const config = instructionConfig(configFrom(io, options.config).workspaceContext, dshHome)
  return { cwd, config, fs: createLocalFileSystem({ writableRoots: [] }) }
}

/** Prints the baseline and the report. */
export async function contextCommand(io: CliIo, options: ContextOptions): Promise<number> {
  const report = await inspectContext(prepare(io, options))
  io.stdout.write(options.json === true ? `${JSON.stringify(report, null, 2)}\n` : `${formatContextReport(report)}\n`)
  return 0
}

/** Explains which instruction files apply to a path. */
export async function contextWhyCommand(io: CliIo, path: string, options: ContextOptions): Promise<number> {
  const explanation = await explainPath({ ...prepare(io, options), path })
  io.stdout.write(options.json === true ? `${JSON.stringify(explanation, null, 2)}\n` : `${formatExplanation(explanation)}\n`)
  return 0
}
