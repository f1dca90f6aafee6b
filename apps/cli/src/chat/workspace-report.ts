/**
 * The first half of `/context` (and of the web page's Context tab): the workspace-context plugin's
 * own inspection of the chat's working directory (project root, every instruction-file candidate
 * and its state, the budget), as `dsh context` prints it but without the baseline text itself,
 * followed as there by the additional roots registered for the directory with their top-level
 * instruction files.
 */
import type { FileSystemPort } from '@dsh/contracts'
import { formatContextReport, inspectContext } from '@dsh/workspace-context'
import { errorMessage } from '@dsh/runtime'
import { additionalRootsReport, additionalRootsText } from '../commands/context-roots.ts'
import type { ConfigFile } from '../config-file.ts'
import { instructionConfig } from '../instruction-config.ts'

/** What the inspection needs. */
export interface WorkspaceReportInput {
  readonly cwd: string
  readonly dshHome: string
  /** The config file (its `workspaceContext` and `multiRootWorkspace` sections). */
  readonly config: ConfigFile
  readonly fs: FileSystemPort | undefined
  readonly signal: AbortSignal
}

/** Report lines; a failure becomes one line saying why, so `/context` still shows the session part. */
export async function workspaceReport(input: WorkspaceReportInput): Promise<string[]> {
  if (input.fs === undefined) return ['(no filesystem is configured, so instruction files cannot be inspected)']
  try {
    const report = await inspectContext({ cwd: input.cwd, config: instructionConfig(input.config.workspaceContext, input.dshHome), fs: input.fs, signal: input.signal })
    const lines = formatContextReport(report).split('\n')
    const budget = lines.findIndex((line) => line.startsWith('Baseline: '))
    const own = budget < 0 ? lines : [...lines.slice(0, budget + 1), '(dsh context prints the baseline text itself)']
    return [...own, ...(await rootsLines(input, input.fs))]
  } catch (error) {
    // Inspection reads the disk; an I/O failure or a cancel is reported on one line instead of ending the chat.
    return [`cannot inspect instruction files: ${errorMessage(error)}`]
  }
}

/** The additional-roots lines (none when none is registered or the plugin is off). */
async function rootsLines(input: WorkspaceReportInput, fs: FileSystemPort): Promise<string[]> {
  try {
    const text = additionalRootsText(await additionalRootsReport({ cwd: input.cwd, dshHome: input.dshHome, config: input.config, fs }))
    return text === '' ? [] : text.replace(/\n$/, '').split('\n')
  } catch (error) {
    // An unreadable root registry costs its own part only; the instruction files above still show.
    return ['', `cannot inspect the additional roots: ${errorMessage(error)}`]
  }
}
