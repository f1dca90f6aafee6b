/**
 * `@` completion for the page's Message box: `GET /sessions/:id/mentions?prefix=@partial` answers
 * the suggestions @dsh/tools' `mentionSuggestions` gives in the session's working directory (the
 * typed directory's entries, then fuzzy matches over the project's files), as the chat's editor
 * completes them. One file index per working directory, kept while `dsh web` runs (it lists the
 * files again when its listing is stale). A prefix that is not one `@` token is a 400.
 */
import { Hono } from 'hono'
import { FileIndex, mentionSuggestions } from '@dsh/tools'
import type { LiveSessions } from './live-sessions.ts'
import { refuse } from './request-guard.ts'
import { liveSessionOf } from './session-routes.ts'

/** A partial mention: `@` and up to 1,000 characters without whitespace or another `@`. */
const PREFIX = /^@[^\s@]{0,1000}$/

/** The route. */
export function mentionRoutes(sessions: LiveSessions): Hono {
  const app = new Hono()
  const indexes = new Map<string, FileIndex>()
  app.get('/sessions/:id/mentions', async (c) => {
    const live = liveSessionOf(c, sessions)
    if (live instanceof Response) return live
    const prefix = c.req.query('prefix') ?? ''
    if (!PREFIX.test(prefix)) return refuse(c, 400, 'prefix must be one @ token without spaces (such as @src/ser)')
    const cwd = live.agent.session.header.cwd
    let index = indexes.get(cwd)
    if (index === undefined) {
      index = new FileIndex({ cwd })
      indexes.set(cwd, index)
    }
    return c.json({ items: await mentionSuggestions(cwd, prefix, index) })
  })
  return app
}
