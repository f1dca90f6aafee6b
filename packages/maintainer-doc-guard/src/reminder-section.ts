/**
 * The standing reminder (system-prompt section `maintainer-doc-guard`, order 100): the documents
 * that exist for this session (non-blank, the human-only README left out), an instruction to read
 * the relevant one before each operation, and the plan and conventions injected in full within
 * their caps. Rendered from the session's latest document snapshot at every assembly; nothing is
 * logged. Everything copied in is defused.
 */
import { defuseBraces, escapeFrameLines } from './defuse.ts'
import type { DocumentProbe } from './document-probe.ts'
import { displayPath, isHumanOnly, isLedger } from './document-roles.ts'
import { injectionPlan } from './injection-plan.ts'
import { frameClose, frameOpen, LEDGER_NOTE, noDocumentsLine, TRUNCATED_LINE } from './reminder-texts.ts'
import type { ResolvedConfig } from './resolve-config.ts'

/** Inputs of {@link renderReminder}. */
export interface ReminderInput {
  readonly config: ResolvedConfig
  readonly cwd: string
  readonly probes: readonly DocumentProbe[]
}

/** The section text ('' drops the section). */
export function renderReminder(input: ReminderInput): string {
  const { config, cwd, probes } = input
  const listed = probes.filter((probe) => probe.found !== undefined && !isHumanOnly(probe.name))
  if (listed.length === 0 && config.onlyWhenPresent) return ''
  const lines = [config.title, '', config.intro, '']
  if (listed.length === 0) {
    const expected = config.docs.filter((name) => !isHumanOnly(name))
    lines.push(noDocumentsLine(expected, config.docsDir))
  }
  for (const probe of listed) {
    const path = displayPath(cwd, probe.found?.path ?? probe.name)
    lines.push(`- ${path}${isLedger(probe.name) ? LEDGER_NOTE : ''}`)
  }
  const injected = injectionPlan(config.injectDocs, listed)
  if (injected.length > 0) lines.push('', config.injectDocs.title)
  for (const item of injected) {
    const path = displayPath(cwd, item.doc.path)
    lines.push('', frameOpen(path), escapeFrameLines(item.text))
    if (item.truncated) lines.push(TRUNCATED_LINE)
    lines.push(frameClose(path))
  }
  return defuseBraces(lines.join('\n'))
}
