/**
 * The first half of `/context`: the workspace-context plugin's own inspection of the chat's
 * working directory (project root, every instruction-file candidate and its state, the budget),
 * as `dsh context` prints it but without the baseline text itself.
 */
import type { FileSystemPort } from '@dsh/contracts'
import { formatContextReport, inspectContext } from '@dsh/workspace-context'
import { instructionConfig, type WorkspaceContextSection } from '../instruction-config.ts'
import { errorMessage } from '@dsh/runtime'

/** What the inspection needs. */
export interface WorkspaceReportInput {
  readonly cwd: string
  readonly dshHome: string
  /** The config file's `workspaceContext` section, if any. */
  readonly config: WorkspaceContextSection | undefined
  readonly fs: FileSystemPort | undefined
  readonly signal: AbortSignal
}

/** Report lines; a failure becomes one line saying why, so `/context` still shows the session part. */
export async function workspaceReport(input: WorkspaceReportInput): Promise<string[]> {
  if (input.fs === undefined) return ['(no filesystem is configured, so instruction files cannot be inspected)']
  try {
    const report = await inspectContext({ cwd: input.cwd, config: instructionConfig(input.config, input.dshHome), fs: input.fs, signal: input.signal })
    const lines = formatContextReport(report).split('\n')
    const budget = lines.findIndex((line) => line.startsWith('Baseline: '))
    return budget < 0 ? lines : [...lines.slice(0, budget + 1), '(dsh context prints the baseline text itself)']
  } catch (error) {
    // Inspection reads the disk; an I/O failure or a cancel is reported on one line instead of ending the chat.
    return [`cannot inspect instruction files: ${errorMessage(error)}`]
  }
}
