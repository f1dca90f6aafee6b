/**
 * `session/list`: stored top-level sessions that were prompted at least once (subagent sessions
 * and sessions never prompted are left out), most recently
 * updated first, those of `cwd` only when the client names one (compared canonically, shown as
 * the client spelled it). Pages of {@link pageSize}; the cursor is the offset of the next page.
 */
import { RequestError, type ListSessionsRequest, type ListSessionsResponse } from '@agentclientprotocol/sdk'
import type { SessionStore } from '@dsh/runtime'
import { canonicalDirectory } from './canonical-directory.ts'

/** Sessions per page. */
export const pageSize = 100

function offsetOf(cursor: string | null | undefined): number {
  if (cursor === undefined || cursor === null) return 0
  const offset = Number(cursor)
  if (!Number.isInteger(offset) || offset < 0) throw RequestError.invalidParams(undefined, `cursor ${JSON.stringify(cursor)} is not one this agent returned`)
  return offset
}

/** Answers `session/list`. */
export function listSessions(store: SessionStore, params: ListSessionsRequest): ListSessionsResponse {
  const wanted = params.cwd === undefined || params.cwd === null ? undefined : canonicalDirectory(params.cwd)
  const all = store.list().filter((summary) => summary.header.origin !== 'subagent' && summary.turnCount > 0 && (wanted === undefined || summary.header.cwd === wanted))
  const offset = offsetOf(params.cursor)
  const page = all.slice(offset, offset + pageSize)
  return {
    sessions: page.map((summary) => ({
      sessionId: summary.id,
      cwd: wanted === undefined || params.cwd === null || params.cwd === undefined ? summary.header.cwd : params.cwd,
      updatedAt: summary.updatedAt.toISOString(),
      ...(summary.title === undefined ? {} : { title: summary.title }),
    })),
    ...(offset + pageSize < all.length ? { nextCursor: String(offset + pageSize) } : {}),
  }
}
