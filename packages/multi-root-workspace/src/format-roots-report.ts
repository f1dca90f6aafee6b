/**
 * Terminal text of the `dsh context` reports about additional roots (every path, alias and detail
 * made terminal-safe; the JSON form stays exact).
 */
import { terminalLine } from '@dsh/workspace-context'
import type { RootPathExplanation, RootsReport } from './inspect-roots.ts'

/** The additional-roots section of `dsh context` (empty when there is nothing to say). */
export function formatRootsReport(report: RootsReport): string {
  if (report.roots.length === 0 && report.registryProblem === undefined) return ''
  const lines = ['', 'Additional workspace roots (dsh roots list):']
  if (report.registryProblem !== undefined) lines.push(`  registry problem: ${terminalLine(report.registryProblem)}`)
  for (const root of report.roots) {
    const alias = root.alias === undefined ? '' : ` [${terminalLine(root.alias)}]`
    lines.push(`  ${root.ordinal}. ${terminalLine(root.path)}${alias} — ${root.state}${root.detail === undefined ? '' : `: ${terminalLine(root.detail)}`}`)
    if (root.state === 'available' && root.files.length === 0) lines.push('     (no top-level instruction files)')
    for (const file of root.files) {
      const what = file.state === 'loaded' ? `top level, sent at the first step (${file.bytes ?? 0} bytes)` : `not loaded (${file.reason ?? 'unusable'})`
      lines.push(`     ${terminalLine(file.path)}: ${what}`)
    }
  }
  return lines.join('\n')
}

/** `dsh context why PATH` for a path inside an additional root. */
export function formatRootPathExplanation(explanation: RootPathExplanation): string {
  const lines = [`Instruction files that apply to ${terminalLine(explanation.target)}`, `(additional workspace root ${terminalLine(explanation.root)}; more specific files are listed later and take precedence):`]
  if (explanation.files.length === 0) lines.push('  (none)')
  explanation.files.forEach((file, index) => lines.push(`  ${index + 1}. ${terminalLine(file.path)} — ${file.reason}`))
  for (const skip of explanation.skipped) lines.push(`  skipped ${terminalLine(skip.path)}: ${skip.reason}`)
  return lines.join('\n')
}
