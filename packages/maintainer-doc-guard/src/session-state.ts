/**
 * In-memory bookkeeping of one live session, keyed by the session object the loop holds (an
 * opaque identity: a resumed session is a new object, so it starts clean and re-reads its
 * precedents, like the fs observation policy). Nothing here is persisted; a restart or a remount
 * of the plugin clears it, which is why notices can repeat after a reload.
 */
import type { SessionHeader, SessionView } from '@dsh/contracts'
import { AnchorTracker } from './anchor-source.ts'
import type { DocumentMemo } from './document-probe.ts'
import type { DocumentSnapshot } from './document-snapshot.ts'
import type { LedgerCache } from './ledger-source.ts'

/** Per-turn budgets, reset at `turn/start`. */
export interface TurnState {
  readonly turn: number
  /** Assistant messages seen this turn (the intent gate's sensor). */
  assistantMessages: number
  /** Unexplained side-effecting calls this turn. */
  deviations: number
  /** Intent denials this turn. */
  blocks: number
  /** Intent and drift reminders sent (or counted in dry run) this turn. */
  nudges: number
  /** The drift check fired this turn. */
  driftDone: boolean
  /** The intent gate stood down for this turn. */
  disarmed: boolean
  /** Off-topic corrections steered this turn. */
  corrections: number
}

/** A remembered failure, for auto-induction. */
export interface Failure {
  readonly tool: string
  readonly target: string
  readonly args: unknown
  readonly error: string
}

/** Everything the guard remembers about one session. */
export class SessionState {
  readonly header: SessionHeader
  /** Canonical paths read successfully. */
  readonly reads = new Set<string>()
  /** Basenames of those paths. */
  readonly readNames = new Set<string>()
  /** Precedent denials per canonical target. */
  readonly denies = new Map<string, number>()
  /** Assistant prose since the user last spoke (the last 4000 characters). */
  prose = ''
  /** Characters of that prose in total. */
  proseChars = 0
  /** Steps (assistant messages) since the user last spoke. */
  stepsSinceUser = 0
  turn: TurnState = freshTurn(0)
  readonly firedLedgerLines = new Set<string>()
  /** Unread-documents notices sent per documents fingerprint. */
  readonly docsNotices = new Map<string, number>()
  readonly contentNotices = new Set<string>()
  /** Code artifacts written and not yet reminded about, and those already reminded. */
  readonly verifyPending = new Set<string>()
  readonly verifyDone = new Set<string>()
  /** Subagent results waiting for their reminder. */
  childPending = 0
  lastFailure: Failure | undefined
  inductions = 0
  readonly anchor: AnchorTracker
  /** The anchor text last delivered as a message (`anchor.delivery: 'message'`). */
  anchorSent: string | undefined
  /** The latest document snapshot (refreshed at every pre-step). */
  snapshot: DocumentSnapshot | undefined
  readonly memo: DocumentMemo = new Map()
  /** Document problems already reported to the operator (path and reason). */
  readonly warnedProblems = new Set<string>()
  /** Parsed ledger lines by file version. */
  readonly ledger: LedgerCache = { key: '', lines: [] }

  constructor(header: SessionHeader) {
    this.header = header
    this.anchor = new AnchorTracker(header)
  }
}

/** Budgets of a new turn. */
export function freshTurn(turn: number): TurnState {
  return { turn, assistantMessages: 0, deviations: 0, blocks: 0, nudges: 0, driftDone: false, disarmed: false, corrections: 0 }
}

/** Per-session states of one guard instance, plus the lineage of sessions it has seen. */
export class SessionStates {
  readonly #states = new WeakMap<SessionView, SessionState>()
  readonly #parents = new Map<string, string>()
  readonly #live = new Set<string>()

  /** The state of `session`, created on first use. */
  of(session: SessionView): SessionState {
    let state = this.#states.get(session)
    if (state === undefined) {
      state = new SessionState(session.header)
      this.#states.set(session, state)
      this.#live.add(session.header.id)
      if (session.header.parentSession !== undefined) this.#parents.set(session.header.id, session.header.parentSession)
    }
    return state
  }

  /** Ids of the sessions that delegated to `sessionId`, nearest first (as far as this instance saw them). */
  lineage(sessionId: string): string[] {
    const out: string[] = []
    for (let id = this.#parents.get(sessionId); id !== undefined && !out.includes(id) && out.length < 16; id = this.#parents.get(id)) out.push(id)
    return out
  }

  /** Ids of sessions this instance has seen running. */
  liveIds(): ReadonlySet<string> {
    return this.#live
  }
}
