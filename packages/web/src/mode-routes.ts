/**
 * The permission-mode API of the web host (the page's mode menu): the modes a live session can
 * switch to with the one in force, and the switch, which applies from the session's next permission
 * decision (a running turn included) for as long as `dsh web` runs, as the chat's `/mode` does.
 * Every tab showing the session hears of a switch (a `mode` event). A mode the session cannot
 * switch to is a 409 naming the modes it can; without modes in the environment both routes are 404.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { jsonBody } from './json-body.ts'
import type { LiveSessions } from './live-sessions.ts'
import { refuse } from './request-guard.ts'
import { modeViewOf } from './mode-view.ts'
import { liveSessionOf } from './session-routes.ts'
import type { WebEnvironment } from './web-types.ts'

const ModeBody = z.strictObject({ mode: z.string().min(1).max(64) })

/** The routes. */
export function modeRoutes(env: WebEnvironment, sessions: LiveSessions): Hono {
  const app = new Hono()
  const noModes = 'this dsh web offers no permission modes'
  app.get('/sessions/:id/mode', (c) => {
    const live = liveSessionOf(c, sessions)
    if (live instanceof Response) return live
    const view = modeViewOf(env, live.id)
    return view === undefined ? refuse(c, 404, noModes) : c.json(view)
  })
  app.post('/sessions/:id/mode', async (c) => {
    const live = liveSessionOf(c, sessions)
    if (live instanceof Response) return live
    const body = await jsonBody(c, ModeBody)
    if (!body.ok) return body.response
    const modes = env.modes
    if (modes === undefined) return refuse(c, 404, noModes)
    const { mode } = body.value
    const names = modes.available.map((choice) => choice.id).join(', ')
    if (!modes.available.some((choice) => choice.id === mode)) return refuse(c, 409, `mode ${mode}: this session can switch to ${names}`)
    const refusal = modes.set(live.id, mode)
    if (refusal !== undefined) return refuse(c, 409, `mode ${mode}: ${refusal}`)
    live.modeSwitched(mode)
    return c.json({ current: modes.current(live.id) })
  })
  return app
}
