/**
 * The rewind API of the web host (the "Rewind to here" action on each of your messages): a
 * preview of what a rewind of the live session to before turn N changes (files, conversation,
 * conflicts, problems), and the rewind itself, refused while a turn runs. Either can be of one half
 * only (`code` or `conversation` false: files only, or the conversation only, as `dsh rewind
 * --code-only` / `--conversation-only`). Files changed outside
 * dsh since the session wrote them refuse the rewind (409 with the list); the page shows them.
 * `…/rewind/undo` takes the latest rewind back (`dsh rewind --undo`), refused the same ways.
 */
import { relative } from 'node:path'
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { CheckpointDirectory, planRewind, rewindTo, undoRewind, type RewindOutcome } from '@dsh/checkpoints'
import { jsonBody } from './json-body.ts'
import type { LiveSessions } from './live-sessions.ts'
import { refuse } from './request-guard.ts'
import { liveSessionOf } from './session-routes.ts'
import type { WebEnvironment } from './web-types.ts'

const RewindBody = z.strictObject({ turn: z.number().int().min(1), code: z.boolean().optional(), conversation: z.boolean().optional() })

/** The halves a preview's query names (`?code=0` or `?conversation=0` leaves one out). */
function halves(query: (name: string) => string | undefined): { readonly code: boolean; readonly conversation: boolean } {
  return { code: query('code') !== '0', conversation: query('conversation') !== '0' }
}

const neither = 'a rewind needs the files, the conversation or both'

const shown = (cwd: string, path: string): string => {
  const inner = relative(cwd, path)
  return inner !== '' && !inner.startsWith('..') ? inner : path
}

/** The answer to a rewind or its undo. */
function answer(c: Context, cwd: string, outcome: RewindOutcome): Response {
  switch (outcome.kind) {
    case 'refused':
      return refuse(c, 409, outcome.errors.join('; '))
    case 'conflicts':
      return refuse(c, 409, `files changed outside dsh since the session wrote them: ${outcome.conflicts.map((conflict) => shown(cwd, conflict.path)).join(', ')}; nothing was changed`)
    case 'done':
      return c.json({ files: outcome.record.files.length, conversation: outcome.record.conversation })
    default: {
      const unreachable: never = outcome
      throw new Error(`unknown rewind outcome ${JSON.stringify(unreachable)}`)
    }
  }
}

/** The routes. */
export function rewindRoutes(env: WebEnvironment, sessions: LiveSessions): Hono {
  const app = new Hono()
  app.get('/sessions/:id/rewind/:turn', (c) => {
    const live = liveSessionOf(c, sessions)
    if (live instanceof Response) return live
    const turn = Number(c.req.param('turn'))
    if (!Number.isInteger(turn) || turn < 1) return refuse(c, 400, 'the turn is a number from 1')
    const parts = halves((name) => c.req.query(name))
    if (!parts.code && !parts.conversation) return refuse(c, 400, neither)
    const session = live.agent.session
    const directory = new CheckpointDirectory(env.homes.dshHome, session.id)
    let plan
    try {
      plan = planRewind(session, directory, directory.rewinds(), { toTurn: turn, ...parts }, { force: false })
    } catch (error) {
      // A turn out of range or a corrupt checkpoint file: one line for the page.
      return refuse(c, 400, error instanceof Error ? error.message : String(error))
    }
    const cwd = session.header.cwd
    return c.json({
      turn,
      files: plan.files.map((file) => ({ path: shown(cwd, file.path), action: file.target.kind === 'absent' ? 'remove' : 'restore' })),
      conversation: plan.surfaceStart === undefined ? 0 : session.surface.length - plan.surfaceStart,
      conflicts: plan.conflicts.map((conflict) => ({ path: shown(cwd, conflict.path), diff: conflict.diff })),
      unrestorable: plan.unrestorable.map((file) => shown(cwd, file.path)),
      problems: plan.errors,
    })
  })
  app.post('/sessions/:id/rewind', async (c) => {
    const live = liveSessionOf(c, sessions)
    if (live instanceof Response) return live
    const body = await jsonBody(c, RewindBody)
    if (!body.ok) return body.response
    if (live.busy) return refuse(c, 409, 'a turn is running; cancel it or wait before rewinding')
    const parts = { code: body.value.code ?? true, conversation: body.value.conversation ?? true }
    if (!parts.code && !parts.conversation) return refuse(c, 400, neither)
    const session = live.agent.session
    return answer(c, session.header.cwd, rewindTo(session, new CheckpointDirectory(env.homes.dshHome, session.id), { toTurn: body.value.turn, ...parts }, { force: false }))
  })
  app.post('/sessions/:id/rewind/undo', (c) => {
    const live = liveSessionOf(c, sessions)
    if (live instanceof Response) return live
    if (live.busy) return refuse(c, 409, 'a turn is running; cancel it or wait before undoing the rewind')
    const session = live.agent.session
    return answer(c, session.header.cwd, undoRewind(session, new CheckpointDirectory(env.homes.dshHome, session.id), { force: false }))
  })
  return app
}
