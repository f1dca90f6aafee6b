/**
 * The folders (multi-root) API: the live session's additional roots with their states, add (to
 * the cwd's registry, what `dsh roots list` shows), remove, alias; a listing re-checks every root
 * on disk, which is what "retry" asks for. Failures the person caused (a relative or missing path,
 * a duplicate, a bad alias) answer 400 with the registry's own one-line message. Adding a system
 * directory, the home directory or `$DSH_HOME` succeeds with a `warning` saying why it is risky.
 */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import type { SessionWorkspaceRoots, WorkspaceRoot } from '@dsh/contracts'
import { isBadInput, isRootsError, riskyRootWarning } from '@dsh/multi-root-workspace'
import { jsonBody } from './json-body.ts'
import type { LiveSessions } from './live-sessions.ts'
import { refuse } from './request-guard.ts'
import { liveSessionOf } from './session-routes.ts'
import type { WebEnvironment } from './web-types.ts'

const AddBody = z.strictObject({ path: z.string().min(1, 'empty path').max(4096), alias: z.string().max(200).optional() })
const RefBody = z.strictObject({ ref: z.string().min(1).max(4096) })
const AliasBody = z.strictObject({ ref: z.string().min(1).max(4096), alias: z.string().max(200).optional() })

/** A root as the page shows it. */
const rowOf = (root: WorkspaceRoot) => ({ id: root.id, ordinal: root.ordinal, path: root.path, alias: root.alias ?? null, origin: root.origin, state: root.state, detail: root.detail ?? null })

/** The listing answer (it re-checks every root on disk). */
function listing(c: Context, roots: SessionWorkspaceRoots, warning?: string): Response {
  const list = roots.list()
  return c.json({ primary: list.primary, roots: list.roots.map(rowOf), problem: list.registryProblem ?? null, warning: warning ?? null })
}

/** The routes. */
export function foldersRoutes(env: WebEnvironment, sessions: LiveSessions): Hono {
  const app = new Hono()
  const rootsOf = (c: Context): SessionWorkspaceRoots | Response => {
    const live = liveSessionOf(c, sessions)
    if (live instanceof Response) return live
    return env.host.ctx.get('workspaceRoots')?.session(live.agent.session) ?? refuse(c, 404, 'additional workspace roots are disabled (multiRootWorkspace.enabled is false in the config)')
  }
  const change = async (c: Context, run: (roots: SessionWorkspaceRoots) => Promise<unknown>, warning?: string): Promise<Response> => {
    const roots = rootsOf(c)
    if (roots instanceof Response) return roots
    try {
      await run(roots)
    } catch (error) {
      // The registry's own failures carry a code and one line; bad input is the client's (400), the rest a conflict.
      if (isRootsError(error)) return refuse(c, isBadInput(error.code) ? 400 : 409, `${error.code}: ${error.message}`)
      throw error
    }
    return listing(c, roots, warning)
  }
  app.get('/sessions/:id/folders', (c) => {
    const roots = rootsOf(c)
    return roots instanceof Response ? roots : listing(c, roots)
  })
  app.post('/sessions/:id/folders', async (c) => {
    const body = await jsonBody(c, AddBody)
    if (!body.ok) return body.response
    const { path, alias } = body.value
    return change(c, (roots) => roots.add(path, alias === undefined || alias === '' ? {} : { alias }), riskyRootWarning(path, env.homes))
  })
  app.post('/sessions/:id/folders/remove', async (c) => {
    const body = await jsonBody(c, RefBody)
    if (!body.ok) return body.response
    return change(c, (roots) => roots.remove(body.value.ref))
  })
  app.post('/sessions/:id/folders/alias', async (c) => {
    const body = await jsonBody(c, AliasBody)
    if (!body.ok) return body.response
    const alias = body.value.alias === '' ? undefined : body.value.alias
    return change(c, (roots) => roots.alias(body.value.ref, alias))
  })
  return app
}
