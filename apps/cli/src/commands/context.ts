/**
 * `dsh context [--cwd DIR] [--json]`: the instruction baseline a new session in DIR would get,
 * with a report of every candidate examined, and the bytes the MCP servers' tools add to every
 * request (context-mcp.ts); `dsh context why PATH`: which instruction files
 * apply to work on PATH, in order, and why.
 */
import { createLocalFileSystem } from '@dsh/fs-local'
import { explainPath, formatContextReport, formatExplanation, inspectContext } from '@dsh/workspace-context'
import type { CliIo } from '../cli-io.ts'
import { configFrom } from '../agent-setup.ts'
import { cwdFrom, dshHomeFrom } from '../global-options.ts'
import { instructionConfig } from '../instruction-config.ts'
import { skillsReport } from './context-skills.ts'
import { mcpContextReport } from './context-mcp.ts'
import { additionalRootsReport, additionalRootsText, explainInAdditionalRoot, registeredTrustedRoots } from './context-roots.ts'

/** Options of both forms. */
export interface ContextOptions {
  readonly dshHome?: string
  readonly cwd?: string
  readonly config?: string
  readonly json?: boolean
  readonly mcpConfig?: readonly string[]
}

function prepare(io: CliIo, options: ContextOptions) {
  const dshHome = dshHomeFrom(io, options.dshHome)
  const cwd = cwdFrom(io, options.cwd)
  const file = configFrom(io, options.config)
  const config = instructionConfig(file.workspaceContext, dshHome)
  const fs = createLocalFileSystem({ writableRoots: [] })
  return { cwd, config, fs, extraTrustedRoots: registeredTrustedRoots({ cwd, dshHome, config: file }), roots: { cwd, dshHome, config: file, fs } }
}

/** Prints the baseline and the report. */
export async function contextCommand(io: CliIo, options: ContextOptions): Promise<number> {
  const { roots, ...prepared } = prepare(io, options)
  const report = await inspectContext(prepared)
  const additional = await additionalRootsReport(roots)
  const skills = await skillsReport(io, { fs: prepared.fs, cwd: prepared.cwd, dshHome: roots.dshHome })
  const mcp = await mcpContextReport(io, { ...options, cwd: prepared.cwd })
  const json = { ...report, ...(additional === undefined ? {} : { additionalRoots: additional }), ...skills.json, ...mcp?.json }
  io.stdout.write(options.json === true ? `${JSON.stringify(json, null, 2)}\n` : `${formatContextReport(report)}${additionalRootsText(additional)}\n${skills.text}\n${mcp === undefined ? '' : `\n${mcp.text}`}`)
  return 0
}

/** Explains which instruction files apply to a path. */
export async function contextWhyCommand(io: CliIo, path: string, options: ContextOptions): Promise<number> {
  const { roots, ...prepared } = prepare(io, options)
  const inRoot = await explainInAdditionalRoot(roots, path, options.json === true)
  if (inRoot !== undefined) {
    io.stdout.write(`${inRoot}\n`)
    return 0
  }
  const explanation = await explainPath({ ...prepared, path })
  const skills = await skillsReport(io, { fs: prepared.fs, cwd: prepared.cwd, dshHome: roots.dshHome }, path)
  io.stdout.write(options.json === true ? `${JSON.stringify({ ...explanation, ...skills.json }, null, 2)}\n` : `${formatExplanation(explanation)}\n${skills.text}\n`)
  return 0
}
