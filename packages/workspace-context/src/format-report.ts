/**
 * Human-readable rendering of a {@link ContextReport} (`dsh context`): the project root, one line
 * per existing candidate with its state, a budget summary, then the baseline text. Every
 * repository-derived string is made terminal-safe (`terminal-text.ts`); the JSON form of the
 * report stays exact.
 */
import type { CandidateReport, ContextReport } from './inspect.ts'
import { terminalLine, terminalText } from './terminal-text.ts'

const LABELS: Record<CandidateReport['state'], string> = {
  loaded: 'loaded',
  truncated: 'truncated by budget',
  'omitted-by-budget': 'omitted by budget',
  shadowed: 'shadowed',
  unreadable: 'unreadable',
  'escaping-link': 'escaping link (not loaded)',
  'not-utf8': 'not UTF-8 text (not loaded)',
  'special-file': 'special file (never read)',
  'not-a-file': 'not a regular file',
  missing: 'missing',
}

function line(candidate: CandidateReport): string {
  const size = candidate.bytes === undefined ? '' : candidate.includedBytes === undefined ? ` (${candidate.bytes} bytes)` : ` (${candidate.includedBytes} of ${candidate.bytes} bytes)`
  const detail = candidate.detail === undefined ? '' : ` — ${terminalLine(candidate.detail)}`
  return `  ${terminalLine(candidate.path)}: ${LABELS[candidate.state]}${size}${detail}`
}

/** Formats a report for a terminal. */
export function formatContextReport(report: ContextReport): string {
  const via = report.projectRootVia === 'marker' ? `marker ${terminalLine(report.projectRootMarker ?? '')}` : report.projectRootVia === 'cwd' ? 'no marker found; using the working directory' : 'a marker probe failed; using the working directory'
  const lines = [`Working directory: ${terminalLine(report.cwd)}`, `Project root: ${terminalLine(report.projectRoot)} (${via})`, `Home: ${terminalLine(report.dshHome)}`]
  if (!report.enabled) {
    lines.push('Workspace instructions are disabled (maxBytes is not a positive finite number).')
    return lines.join('\n')
  }
  const shown = report.candidates.filter((c) => c.state !== 'missing' || c.detail !== undefined)
  lines.push('', 'Instruction files:')
  if (shown.length === 0) lines.push('  (none found)')
  for (const candidate of shown) lines.push(line(candidate))
  const missing = report.candidates.length - shown.length
  if (missing > 0) lines.push(`  (${missing} other candidate name${missing === 1 ? '' : 's'} not present)`)
  lines.push('', `Baseline: ${report.baseline.bytes} of ${report.maxBytes} bytes`)
  lines.push(report.baseline.text === '' ? '(no baseline would be injected)' : terminalText(report.baseline.text))
  return lines.join('\n')
}
