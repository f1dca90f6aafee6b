/**
 * The first half of `/context`: the workspace-context plugin's own inspection of the chat's
 * working directory (project root, every instruction-file candidate and its state, the budget),
 * as `dsh context` prints it but without the baseline text itself.
 */
import type { FileSystemPort } from '@dsh/contracts'
import { Config, formatContextReport, inspectContext } from '@dsh/workspace-context'
import { problemText } from './renderer.ts'

/**
 * The plugin's byte budget when the config file sets none (the product default; the plugin itself
 * requires an explicit value).
 */
export const defaultInstructionBudget = 65_536

/** What the inspection needs. */
export interface WorkspaceReportInput {
  readonly cwd: string
  readonly dshHome: string
  /** The config file's `workspaceContext` section, if any. */
  readonly config: Readonly<Record<string, unknown>> | undefined
  readonly fs: FileSystemPort | undefined
  readonly signal: AbortSignal
}

/** Report lines; a failure becomes one line saying why, so `/context` still shows the session part. */
export async function workspaceReport(input: WorkspaceReportInput): Promise<string[]> {
  if (input.fs === undefined) return ['(no filesystem is configured, so instruction files cannot be inspected)']
  const parsed = Config.safeParse({ maxBytes: defaultInstructionBudget, ...input.config })
  if (!parsed.success) return [`the workspaceContext config is invalid: ${parsed.error.issues[0]?.message ?? 'unknown problem'}`]
  try {
    const report = await inspectContext({ cwd: input.cwd, dshHome: input.dshHome, config: parsed.data, fs: input.fs, signal: input.signal })
    const lines = formatContextReport(report).split('\n')
    const budget = lines.findIndex((line) => line.startsWith('Baseline: '))
    return budget < 0 ? lines : [...lines.slice(0, budget + 1), '(dsh context prints the baseline text itself)']
  } catch (error) {
    // Inspection reads the disk; an I/O failure or a cancel is reported on one line instead of ending the chat.
    return [`cannot inspect instruction files: ${problemText(error)}`]
  }
}
