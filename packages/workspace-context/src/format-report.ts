/**
 * Human-readable rendering of a {@link ContextReport} (`dsh context`): the working directory, the
 * project root, the user-global file, then per directory (broad to specific) each existing
 * candidate with its state, or the candidate names it could use when it has none; a budget
 * summary, then the baseline text. Every repository-derived string is made terminal-safe
 * (`terminal-text.ts`); the JSON form of the report stays exact.
 */
import type { CandidateReport, ContextReport, DirectoryReport } from './inspect.ts'
import { terminalLine, terminalText } from './terminal-text.ts'

const LABELS: Record<CandidateReport['state'], string> = {
  loaded: 'loaded',
  'same-file': 'same file (not repeated)',
  empty: 'empty',
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
  return `    ${terminalLine(candidate.path)}: ${LABELS[candidate.state]}${size}${detail}`
}

const names = (list: readonly string[]): string => list.map(terminalLine).join(', ')

/** What a directory without any instruction file would read, in precedence order. */
function wouldRead(directory: DirectoryReport, policy: 'first' | 'all'): string {
  const base = policy === 'first' && directory.candidates.length > 1 ? `${names(directory.candidates)} (the first that exists)` : names(directory.candidates)
  const local = directory.localCandidates.length === 0 ? '' : `, then ${policy === 'first' && directory.localCandidates.length > 1 ? `the first of ${names(directory.localCandidates)}` : names(directory.localCandidates)} as a local overlay`
  return `    no instruction file; would read ${base}${local}`
}

function heading(directory: DirectoryReport): string {
  if (directory.kind === 'user-global') return '  user-global file:'
  return directory.dir === '.' ? '  project root:' : `  ${terminalLine(directory.dir)}:`
}

/** Formats a report for a terminal. */
export function formatContextReport(report: ContextReport): string {
  const via = report.projectRootVia === 'marker' ? `marker ${terminalLine(report.projectRootMarker ?? '')}` : report.projectRootVia === 'cwd' ? 'no marker found; using the working directory' : 'a marker probe failed; using the working directory'
  const lines = [
    `Working directory: ${terminalLine(report.cwd)}`,
    `Project root: ${terminalLine(report.projectRoot)} (${via})`,
    `User-global file: ${terminalLine(report.dshHome)}/AGENTS.md (shown to the model as ${terminalLine(report.userGlobalPath)})`,
  ]
  if (!report.enabled) {
    lines.push('Workspace instructions are disabled (maxBytes is not a positive finite number).')
    return lines.join('\n')
  }
  lines.push('', 'Instruction files, broad to specific (more specific ones take precedence):')
  for (const directory of report.directories) {
    lines.push(heading(directory))
    const mine = report.candidates.filter((c) => c.root === directory.root && c.dir === directory.dir && (c.state !== 'missing' || c.detail !== undefined))
    if (mine.length === 0) lines.push(directory.kind === 'user-global' ? `    ${terminalLine(report.userGlobalPath)}: missing` : wouldRead(directory, report.candidatePolicy))
    for (const candidate of mine) lines.push(line(candidate))
  }
  lines.push('', `Baseline: ${report.baseline.bytes} of ${report.maxBytes} bytes`)
  lines.push(report.baseline.text === '' ? '(no baseline would be injected)' : terminalText(report.baseline.text))
  return lines.join('\n')
}
