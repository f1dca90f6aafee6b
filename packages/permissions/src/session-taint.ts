/**
 * Per session, the protected files (protected-files.ts) that a `write` or `edit` changed without
 * a question — allowed by a rule or by the mode. After such a change, `bash(…)` and `run_code(…)`
 * allow rules no longer cover a shell call in that session (issue 19, item 5): `npm test` is not
 * the command the user allowed once `package.json` says something else.
 */

/** One change that stops allow rules. */
export interface TaintingChange {
  /** The path as the model sees it. */
  readonly shown: string
  /** Why the file is protected. */
  readonly reason: string
}

/** The tainting changes of every session the host serves (keyed by session id). */
export class SessionTaint {
  readonly #bySession = new Map<string, TaintingChange[]>()

  /** Records a change made without a question. */
  add(session: string, change: TaintingChange): void {
    const list = this.#bySession.get(session) ?? []
    if (!list.some((known) => known.shown === change.shown)) list.push(change)
    this.#bySession.set(session, list)
  }

  /** The first change recorded for the session, if any. */
  first(session: string): TaintingChange | undefined {
    return this.#bySession.get(session)?.[0]
  }
}
