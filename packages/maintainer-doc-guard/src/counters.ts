/**
 * Counters of what the guard saw and did, for the operator (the `/docs counters` view and the web
 * panel). In memory, per guard instance, lost on restart. A healthy deployment shows `seen > 0`
 * and `nudgeFailed == 0`; `intentDisarmed > 0` means the intent gate could not see assistant
 * messages and stood down.
 */

/** Every counted event. */
export const COUNTER_NAMES = [
  // precedent gate
  'seen',
  'denied',
  'gaveUp',
  'wouldDeny',
  'reads',
  'operatorDocsDenied',
  // intent gate
  'intentBlocked',
  'intentWouldBlock',
  'intentGaveUp',
  'intentDisarmed',
  // nudges (every injected reminder, by tag in lastNudge)
  'nudged',
  'nudgeWouldSend',
  'nudgeCapped',
  'nudgeFailed',
  'driftSkipDisabled',
  'driftSkipDone',
  'driftSkipEarly',
  'driftSkipBudget',
  // notices
  'docsNoticeSent',
  'docsNoticeWouldSend',
  'ledgerNoticeSent',
  'ledgerInduced',
  'contentNoticeSent',
  'verifyNoticeSent',
  'childNoticeSent',
  // sections
  'sectionRenderSeen',
  'anchorSent',
  // strict judge
  'judgeOnTopic',
  'judgeOffTopic',
  'judgeSteered',
  'judgeFailed',
  // housekeeping
  'orphansRemoved',
  'internalErrors',
] as const

/** A counter name. */
export type CounterName = (typeof COUNTER_NAMES)[number]

/** Names of the "last …" records. */
export type LastName = 'lastDenied' | 'lastIntentBlocked' | 'lastNudge' | 'lastDocsNotice' | 'lastLedgerNotice' | 'lastLedgerInduced' | 'lastVerifyNotice' | 'lastSectionDocs' | 'lastAnchor' | 'lastJudge' | 'lastError'

/** A snapshot for the operator. */
export interface CountersSnapshot {
  /** Every counter by name (zero when never counted). */
  readonly counts: Readonly<Record<string, number>>
  /** The latest detail of each "last …" record that was set. */
  readonly last: Readonly<Record<string, unknown>>
}

/** Mutable counters of one guard instance. */
export class Counters {
  readonly #counts = new Map<CounterName, number>()
  readonly #last = new Map<LastName, unknown>()

  /** Adds `by` (default 1) to `name`. */
  add(name: CounterName, by = 1): void {
    this.#counts.set(name, (this.#counts.get(name) ?? 0) + by)
  }

  /** Records the latest detail of `name` (JSON-like data). */
  note(name: LastName, value: unknown): void {
    this.#last.set(name, value)
  }

  /** The value of one counter. */
  get(name: CounterName): number {
    return this.#counts.get(name) ?? 0
  }

  /** A frozen copy of everything. */
  snapshot(): CountersSnapshot {
    const counts = Object.fromEntries(COUNTER_NAMES.map((name) => [name, this.get(name)]))
    return Object.freeze({ counts: Object.freeze(counts), last: Object.freeze(Object.fromEntries(this.#last)) })
  }
}
