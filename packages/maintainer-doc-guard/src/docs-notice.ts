/**
 * The unread-documents reminder: when the session has listed documents with content it never
 * read (the human-only README, the ledger and documents injected in full are left out), the next
 * call carries a reminder. It re-arms whenever those documents change (fingerprint: path and
 * version) and is sent at most twice per fingerprint; the second time with excerpts (1600
 * characters per document, 4000 in total).
 */
import { clip, escapeFrameLines } from './defuse.ts'
import type { DocumentSnapshot } from './document-snapshot.ts'
import { displayPath, isHumanOnly, isLedger } from './document-roles.ts'
import { injectionPlan } from './injection-plan.ts'
import { unreadDocsNotice, unreadDocsSecondNotice } from './notice-texts.ts'
import type { ResolvedConfig } from './resolve-config.ts'
import type { SessionState } from './session-state.ts'

/** Sends per fingerprint. */
export const MAX_DOCS_NOTICES = 2
const EXCERPT_PER_DOC = 1600
const EXCERPT_TOTAL = 4000

/** A due reminder. */
export interface DueDocsNotice {
  readonly text: string
  readonly count: number
  readonly withContent: boolean
}

/** The reminder due now (and counts it as sent), or `undefined`. */
export function takeDocsNotice(snapshot: DocumentSnapshot, state: SessionState, config: ResolvedConfig): DueDocsNotice | undefined {
  const listed = snapshot.probes.filter((probe) => probe.found !== undefined && !isHumanOnly(probe.name) && !isLedger(probe.name))
  const inFull = new Set(injectionPlan(config.injectDocs, listed).flatMap((item) => (item.truncated ? [] : [item.doc.path])))
  const candidates = listed.flatMap((probe) => (probe.found === undefined || inFull.has(probe.found.path) ? [] : [probe.found]))
  const unread = candidates.filter((doc) => !state.reads.has(doc.realPath) && !state.reads.has(doc.path))
  if (unread.length === 0) return undefined
  // The version of the documents, not of the unread set: reading one of them does not re-arm it.
  const fingerprint = candidates.map((doc) => `${doc.path}@${doc.version}`).join('\n')
  const sends = state.docsNotices.get(fingerprint) ?? 0
  if (sends >= MAX_DOCS_NOTICES) return undefined
  state.docsNotices.set(fingerprint, sends + 1)
  const cwd = snapshot.place.cwd
  if (sends === 0) return { text: unreadDocsNotice(unread.map((doc) => displayPath(cwd, doc.path))), count: unread.length, withContent: false }
  let left = EXCERPT_TOTAL
  const excerpts = unread.flatMap((doc) => {
    const budget = Math.min(EXCERPT_PER_DOC, left)
    if (budget <= 0) return []
    const cut = clip(doc.text.trim(), budget, '')
    left -= cut.text.length
    return [{ path: displayPath(cwd, doc.path), text: escapeFrameLines(cut.text), truncated: cut.clipped }]
  })
  return { text: unreadDocsSecondNotice(excerpts), count: unread.length, withContent: true }
}
