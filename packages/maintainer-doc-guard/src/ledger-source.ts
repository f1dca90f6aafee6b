/**
 * Where the session's ledger is: the `lessons.md` the document probe found (the session's own
 * folder first, then the workspace and project levels), else the workspace level
 * `<cwd>/<docsDir>/lessons.md`, which is where automatic lines go and what denials point to.
 * Parsed lines are cached per file version.
 */
import { join } from 'node:path'
import type { DocumentSnapshot } from './document-snapshot.ts'
import { isLedger, LEDGER_TAIL } from './document-roles.ts'
import { parseLedger, type LedgerLine } from './ledger-parser.ts'

/** Parsed ledger cache of one session. */
export interface LedgerCache {
  key: string
  lines: readonly LedgerLine[]
}

/** The ledger's path for this session (found or default). */
export function ledgerPath(snapshot: DocumentSnapshot, docsDir: string): string {
  const found = snapshot.probes.find((probe) => isLedger(probe.name) && probe.found !== undefined)?.found
  return found?.path ?? join(snapshot.place.cwd, docsDir, LEDGER_TAIL)
}

/** The parsed lines of the ledger in `snapshot` ([] when there is none). */
export function ledgerLines(snapshot: DocumentSnapshot, cache: LedgerCache): readonly LedgerLine[] {
  const found = snapshot.probes.find((probe) => isLedger(probe.name) && probe.found !== undefined)?.found
  if (found === undefined) return []
  const key = `${found.path}@${found.version}`
  if (cache.key !== key) {
    cache.key = key
    cache.lines = parseLedger(found.text)
  }
  return cache.lines
}
