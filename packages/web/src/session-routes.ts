/**
 * The chat API of the web host: the sessions list of the cwd, starting, resuming or closing a session, its
 * history, its event stream and the browser-wide stream of every live session (Server-Sent Events), prompt, cancel, approval answers and the context
 * report. A route naming a session that is not live answers 404; nothing is derived from a path.
 */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { SessionView } from '@dsh/contracts'
import { dataOf, deriveMessages, isDshError } from '@dsh/runtime'
import { todoListOf } from '@dsh/todo'
import { historyItems } from './history-items.ts'
import { jsonBody } from './json-body.ts'
import type { LiveSession } from './live-session.ts'
import { ResumeRefused, type LiveSessions } from './live-sessions.ts'
import { modeViewOf } from './mode-view.ts'
import { refuse } from './request-guard.ts'
import { sseStream } from './sse-stream.ts'
import { usageView, type UsageView } from './usage-view.ts'
import type { WebEnvironment } from './web-types.ts'

/** Session ids as the store writes them (and prefixes of them). */
export const sessionIdPattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/

const OpenBody = z.strictObject({ resume: z.string().regex(sessionIdPattern, 'not a session id').optional() })
const PromptBody = z.strictObject({ text: z.string().min(1, 'empty message').max(200_000) })
const CloseBody = z.strictObject({ stopTurn: z.boolean().optional() })
const AnswerBody = z.strictObject({ choice: z.enum(['once', 'always', 'always-tool', 'reject']), note: z.string().max(2000).optional() })

/** Looks up the live session a route names, or answers 404. */
export function liveSessionOf(c: Context, sessions: LiveSessions): LiveSession | Response {
  const id = c.req.param('id') ?? ''
  const live = sessionIdPattern.test(id) ? sessions.get(id) : undefined
  return live ?? refuse(c, 404, `session ${JSON.stringify(id)} is not open in this dsh web (open it from the sessions list first)`)
}

/** The routes. */
/** The open session's additional roots (registered and granted): their skills expand and complete too. */
const rootsOf = (env: WebEnvironment, session: SessionView): readonly string[] => env.host.ctx.get('workspaceRoots')?.session(session).writableRoots() ?? []

export function sessionRoutes(env: WebEnvironment, sessions: LiveSessions, streams: Set<() => void>): Hono {
  const app = new Hono()
  const usageOf = (live: LiveSession): UsageView => usageView(live.agent.session.events, { contextWindow: env.contextWindow ?? 0, prices: env.prices })
  app.get('/sessions', (c) => c.json({ cwd: env.cwd, ...sessions.rows() }))
  app.post('/sessions', async (c) => {
    const body = await jsonBody(c, OpenBody)
    if (!body.ok) return body.response
    try {
      const live = body.value.resume === undefined ? await sessions.start() : await sessions.resume(body.value.resume)
      return c.json({ id: live.id })
    } catch (error) {
      if (error instanceof ResumeRefused) return refuse(c, 404, error.message)
      // The store's typed refusals (the session is open in another dsh, its file is damaged) are conflicts, not crashes.
      if (isDshError(error)) return refuse(c, 409, `${error.code}: ${error.message}`)
      throw error
    }
  })
  app.post('/sessions/:id/close', async (c) => {
    const id = c.req.param('id')
    const body = await jsonBody(c, CloseBody)
    if (!body.ok) return body.response
    const outcome = sessionIdPattern.test(id) ? await sessions.close(id, { stopTurn: body.value.stopTurn ?? false }) : 'unknown'
    if (outcome === 'unknown') return refuse(c, 404, `no session ${JSON.stringify(id)} of ${env.cwd} to close`)
    if (outcome === 'running') return refuse(c, 409, 'the session is running a turn or waiting for an answer; closing it stops that (send stopTurn: true)')
    return c.json({ closed: true })
  })
  app.get('/sessions/:id/history', (c) => {
    const live = liveSessionOf(c, sessions)
    if (live instanceof Response) return live
    const turns = new Map<string, number>()
    for (const event of live.agent.session.events) {
      const data = dataOf(event, 'user/message')
      if (data?.turn !== undefined) turns.set(data.message.id, data.turn)
    }
    // Read in one go with the event number: the page applies only the browser-wide stream's events after `seq`.
    // `todos`: the list the todo plugin folds from the log, which a compaction keeps though it takes the todo_write rows away.
    const todos = todoListOf(live.agent.session).items.map(({ content, status }) => ({ content, status }))
    return c.json({ id: live.id, busy: live.busy, seq: live.seq, approvals: env.approvals.pending(live.id), usage: usageOf(live), mode: modeViewOf(env, live.id) ?? null, todos, items: historyItems(deriveMessages(live.agent.session), (message) => turns.get(message.id)) })
  })
  app.get('/sessions/:id/usage', (c) => {
    const live = liveSessionOf(c, sessions)
    if (live instanceof Response) return live
    return c.json(usageOf(live))
  })
  app.get('/sessions/:id/events', (c) => {
    const live = liveSessionOf(c, sessions)
    if (live instanceof Response) return live
    return sseStream(c, streams, (write) => live.subscribe(write))
  })
  app.get('/stream', (c) =>
    sseStream(c, streams, (write) => {
      const unwatch = sessions.watch(write)
      write({ kind: 'hello' })
      return unwatch
    }),
  )
  app.post('/sessions/:id/prompt', async (c) => {
    const live = liveSessionOf(c, sessions)
    if (live instanceof Response) return live
    const body = await jsonBody(c, PromptBody)
    if (!body.ok) return body.response
    const { session } = live.agent
    // Files that cannot be read now: the prompt goes as it was typed (said once in the log).
    const typed = { text: body.value.text, events: [] }
    const sent = env.commands === undefined ? typed : await env.commands.expand(body.value.text, { cwd: session.header.cwd, additionalRoots: rootsOf(env, session), session }).catch((error: unknown) => (env.log(`warning: custom commands could not be read: ${error instanceof Error ? error.message : String(error)}`), typed))
    if (!live.prompt(sent.text, sent.events)) return refuse(c, 409, 'a turn is running in this session; wait for it or cancel it')
    return c.json({ accepted: true }, 202)
  })
  app.post('/sessions/:id/cancel', (c) => {
    const live = liveSessionOf(c, sessions)
    if (live instanceof Response) return live
    return c.json({ cancelled: live.cancel() })
  })
  app.post('/sessions/:id/approvals/:approval', async (c) => {
    const live = liveSessionOf(c, sessions)
    if (live instanceof Response) return live
    const body = await jsonBody(c, AnswerBody)
    if (!body.ok) return body.response
    const outcome = env.approvals.answer(live.id, c.req.param('approval'), body.value.choice, body.value.note)
    if (outcome === 'unknown') return refuse(c, 404, 'no such question waits in this session (answered already, or its call ended)')
    if (outcome === 'not-offered') return refuse(c, 409, `the question does not offer "${body.value.choice}"; answer once, reject, or an "always" it offers`)
    return c.json({ answered: true })
  })
  app.get('/sessions/:id/commands', async (c) => {
    const live = liveSessionOf(c, sessions)
    if (live instanceof Response) return live
    // Unreadable command files complete nothing; sending still works.
    const commands = env.commands === undefined ? [] : await env.commands.list({ cwd: live.agent.session.header.cwd, additionalRoots: rootsOf(env, live.agent.session), session: live.agent.session }).catch(() => [])
    return c.json({ commands })
  })
  app.get('/sessions/:id/context', async (c) => {
    const live = liveSessionOf(c, sessions)
    if (live instanceof Response) return live
    const workspace = await env.inspectWorkspace(live.agent.session.header.cwd, c.req.raw.signal)
    const mcp = (env.mcpServers?.() ?? []).map(({ name, transport, source, state }) => ({ name, transport, source, state }))
    return c.json({ cwd: live.agent.session.header.cwd, session: env.sessionContext(deriveMessages(live.agent.session)), workspace, mcp })
  })
  return app
}
