/**
 * The advisory notices of `tools/pre-execute`, sent only when nothing denied the call, in this
 * order and each at most once per call: unread documents, ledger hits, the completion standard,
 * the subagent-report reminder (the landing check waits for the edit's result, see
 * `content-notice.ts`). They observe and advise; none ever blocks. The documents reminder and
 * ledger hits follow the documents' subagent reach; the landing check, completion standard and
 * subagent reminder run in children too.
 */
import { clip } from './defuse.ts'
import type { DocumentSnapshot } from './document-snapshot.ts'
import { displayPath } from './document-roles.ts'
import { takeDocsNotice } from './docs-notice.ts'
import type { TurnStageContext } from './intent-gate.ts'
import { takeLedgerHits } from './ledger-hits.ts'
import { ledgerLines } from './ledger-source.ts'
import { deliverNotice, type NoticeTag } from './notice-delivery.ts'
import { CHILD_NOTICE, ledgerNotice, verifyNotice } from './notice-texts.ts'
import type { SwitchValues } from './switches.ts'

/** Characters of one ledger line shown in a hit (a repository's ledger is untrusted and may be huge). */
export const LEDGER_LINE_CHARS = 600

/** What the notices need beyond the turn stage context. */
export interface AdvisoryContext extends TurnStageContext {
  readonly switches: SwitchValues
  readonly snapshot: DocumentSnapshot | undefined
  /** The documents reach this session (top level, or children opted in). */
  readonly documentsReach: boolean
  /** The call's target path, if it has one. */
  readonly target: string | undefined
}

/** Sends the notices due for this call. */
export async function advisoryStage(context: AdvisoryContext): Promise<void> {
  const { config, state, counters, switches, snapshot } = context
  const send = (tag: NoticeTag, text: string, dryRun = false) => deliverNotice({ agent: context.agent, tag, text, tool: context.tool, dryRun, counters, warn: context.warn })
  const cwd = context.agent.cwd
  if (config.docsNotice.enabled && context.documentsReach && snapshot !== undefined) {
    const due = takeDocsNotice(snapshot, state, config)
    if (due !== undefined) {
      await send('docs', due.text, config.docsNotice.dryRun)
      counters.add(config.docsNotice.dryRun ? 'docsNoticeWouldSend' : 'docsNoticeSent')
      counters.note('lastDocsNotice', { tool: context.tool, count: due.count, withContent: due.withContent })
    }
  }
  if (switches.ledger && context.documentsReach && snapshot !== undefined) {
    const haystack = `${context.target ?? ''}\n${context.command ?? ''}`
    const hits = takeLedgerHits(ledgerLines(snapshot, state.ledger), { tool: context.tool, haystack }, state.firedLedgerLines)
    if (hits.length > 0) {
      await send('ledger', ledgerNotice(context.tool, context.target === undefined ? '' : displayPath(cwd, context.target), hits.map((hit) => clip(hit.text, LEDGER_LINE_CHARS, ' … (cut; the whole line is in the ledger)').text)))
      counters.add('ledgerNoticeSent')
      counters.note('lastLedgerNotice', { tool: context.tool, lines: hits.length })
    }
  }
  if (switches.verify && state.verifyPending.size > 0) {
    const targets = [...state.verifyPending]
    for (const target of targets) state.verifyDone.add(target)
    state.verifyPending.clear()
    await send('verify', verifyNotice(targets.map((target) => displayPath(cwd, target))))
    counters.add('verifyNoticeSent')
    counters.note('lastVerifyNotice', { tool: context.tool, targets })
  }
  if (switches.child && state.childPending > 0) {
    state.childPending = 0
    await send('child', CHILD_NOTICE)
    counters.add('childNoticeSent')
  }
}
