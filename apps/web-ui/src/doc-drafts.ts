/**
 * Unsaved editor text of the documents view. It lives above the side panel (one map per session,
 * held by the app), so switching a document tab, a documents view, the side panel's tab or the
 * session never drops what the person typed; only Save (done) and Reload (discard) end a draft.
 */

/** One unsaved edit. */
export interface DocDraft {
  readonly text: string
  /** Version of the text the edit started from; Save sends it so a changed file is not overwritten. */
  readonly base: string
}

/** Drafts of one session by document name. */
export type DocDrafts = Map<string, DocDraft>

/** Drafts of every session by session id. */
export type DraftStore = Map<string, DocDrafts>

/** The drafts of `sessionId` (created empty on first use). */
export function draftsOf(store: DraftStore, sessionId: string): DocDrafts {
  const existing = store.get(sessionId)
  if (existing !== undefined) return existing
  const created: DocDrafts = new Map()
  store.set(sessionId, created)
  return created
}
