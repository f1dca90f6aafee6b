/**
 * `startWebHost`: the local web host. It listens on 127.0.0.1 only (port 0 picks a free one),
 * creates fresh per-run secrets (web-auth.ts), opens a new session in the cwd so the printed URL leads to a ready
 * chat, puts the request guard in front of every route, and mounts the page, the chat, folders and
 * documents, rewind and mode APIs under one Hono app on `@hono/node-server`. `close` ends the streams, stops the
 * live sessions (each running turn closes itself in its log) and closes the listener; the caller
 * disposes the host.
 */
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { errorMessage } from '@dsh/runtime'
import { docsRoutes, guardOffMessage } from './docs-routes.ts'
import { foldersRoutes } from './folders-routes.ts'
import { LiveSessions } from './live-sessions.ts'
import { pageRoutes } from './page-assets.ts'
import { refuse, requestGuard } from './request-guard.ts'
import { modeRoutes } from './mode-routes.ts'
import { rewindRoutes } from './rewind-routes.ts'
import { mentionRoutes } from './mention-routes.ts'
import { sessionRoutes } from './session-routes.ts'
import { createWebAuth } from './web-auth.ts'
import type { WebEnvironment } from './web-types.ts'

/** Options of {@link startWebHost}. */
export interface WebHostOptions {
  readonly env: WebEnvironment
  /** Port to listen on; 0 picks a free one. */
  readonly port: number
  /** Open this stored session (of the cwd) first instead of a new one. */
  readonly resume?: string | undefined
  /** Directory of the built page (`index.html`, `app.js`, `app.css`). */
  readonly assetsDir: string
  /** Move browsers to this run's private `dsh-….localhost` host name (default true; see web-auth.ts). */
  readonly privateHost?: boolean
}

/** A running web host. */
export interface WebHost {
  /** `http://127.0.0.1:PORT/?token=TOKEN`: what `dsh web` prints. */
  readonly url: string
  readonly port: number
  readonly token: string
  /** This run's private host name (`dsh-<hex>.localhost`), where the browser's cookie lives. */
  readonly hostName: string
  /** The session opened at start-up. */
  readonly firstSession: string
  /** Stops the sessions and the listener. */
  close(): Promise<void>
}

function listen(app: Hono, port: number): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- without serverOptions or createServer, serve() makes a node:http Server
    const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info: AddressInfo) => resolve({ server, port: info.port })) as Server
    server.once('error', reject)
  })
}

/** Starts the host. */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const { env } = options
  const auth = createWebAuth()
  const { token } = auth
  const sessions = new LiveSessions(env)
  const streams = new Set<() => void>()
  let port = 0
  const api = new Hono()
  api.get('/state', (c) => c.json({ cwd: env.cwd, docs: env.docs !== undefined, docsOff: env.docs === undefined ? guardOffMessage : null, firstSession: sessions.current(first.id) ?? null }))
  api.route('/', sessionRoutes(env, sessions, streams))
  api.route('/', foldersRoutes(env, sessions))
  api.route('/', docsRoutes(env.docs, sessions))
  api.route('/', rewindRoutes(env, sessions))
  api.route('/', modeRoutes(env, sessions))
  api.route('/', mentionRoutes(sessions))
  const app = new Hono()
  app.use('*', requestGuard({ auth, port: () => port, privateHost: options.privateHost ?? true }))
  app.route('/api', api)
  app.route('/', pageRoutes(options.assetsDir))
  app.notFound((c) => refuse(c, 404, `no route ${c.req.method} ${c.req.path}`))
  app.onError((error, c) => {
    env.log(`dsh web: ${c.req.method} ${c.req.path}: ${errorMessage(error)}`)
    return c.json({ error: errorMessage(error) }, 500)
  })
  const first = options.resume === undefined ? await sessions.start() : await sessions.resume(options.resume)
  const listening = await listen(app, options.port)
  port = listening.port
  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    hostName: auth.hostName,
    firstSession: first.id,
    async close() {
      for (const close of streams) close()
      await sessions.stopAll()
      await new Promise<void>((resolve) => {
        listening.server.close(() => resolve())
        listening.server.closeAllConnections()
      })
    },
  }
}
