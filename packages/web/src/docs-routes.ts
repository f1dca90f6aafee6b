/**
 * The maintainer-documents API (seed 004's three views) over the guard's operator service:
 * documents (list, read, atomic save), settings (the runtime switches, the ten live settings with
 * their base values, restore default, the documents folder, orphan sweep with a preview) and
 * templates (save as, list, apply). Every call names a live session; the service derives every
 * path from that session's stored header, never from the client. While the guard is off every
 * route answers 404 with how to turn it on.
 */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { isGuardError, LIVE_FIELDS, LiveSettingsSchema, SWITCH_NAMES, SwitchesSchema, type GuardErrorCode, type OperatorService } from '@dsh/maintainer-doc-guard'
import { documentVersion, versionPattern } from './document-version.ts'
import { jsonBody } from './json-body.ts'
import type { LiveSession } from './live-session.ts'
import type { LiveSessions } from './live-sessions.ts'
import { refuse } from './request-guard.ts'
import { liveSessionOf } from './session-routes.ts'

/** What the page shows when the guard is off. */
export const guardOffMessage = 'maintainer documents are off: set maintainerDocGuard.enabled: true in the --config file and restart dsh web'

/** `expected`: the version the page read (see document-version.ts); absent saves unconditionally. */
/** `level`: which copy to write (as `dsh docs edit --level`); absent is `auto` (where the document was found, else the workspace). */
const SaveBody = z.strictObject({ name: z.string().min(1).max(200), content: z.string().max(1_000_000), expected: z.string().regex(versionPattern, 'not a document version').optional(), level: z.enum(['auto', 'session', 'workspace']).optional() })
const NameBody = z.strictObject({ name: z.string().min(1).max(200) })
const SweepBody = z.strictObject({ names: z.array(z.string().min(1).max(200)).max(1000) })
const RestoreBody = z.strictObject({ field: z.enum(LIVE_FIELDS) })

/** Codes that mean the client asked for something that does not exist or is not allowed. */
const clientCodes: ReadonlySet<GuardErrorCode> = new Set<GuardErrorCode>(['DOCS_UNKNOWN_DOCUMENT', 'DOCS_BAD_TEMPLATE_NAME', 'DOCS_UNKNOWN_TEMPLATE', 'DOCS_EMPTY_DOCUMENT', 'DOCS_BAD_VALUE', 'DOCS_USAGE', 'DOCS_UNKNOWN_SESSION', 'DOCS_TOO_LARGE'])

const describe = <T extends string>(names: readonly T[], shape: Record<T, { readonly description?: string | undefined }>) => names.map((name) => ({ name, description: shape[name].description ?? name }))

/** A patch without absent fields (JSON has no `undefined`; zod's partial type still says it may). */
// oxlint-disable-next-line typescript/no-unsafe-type-assertion -- the entries are those of `patch` minus the undefined ones
const definedOnly = <T extends object>(patch: { [K in keyof T]?: T[K] | undefined }): Partial<T> => Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>

/** The routes. */
export function docsRoutes(docs: OperatorService | undefined, sessions: LiveSessions): Hono {
  const app = new Hono()
  const run = async (c: Context, work: (service: OperatorService, live: LiveSession) => Promise<unknown>): Promise<Response> => {
    if (docs === undefined) return refuse(c, 404, guardOffMessage)
    const live = liveSessionOf(c, sessions)
    if (live instanceof Response) return live
    try {
      const result = await work(docs, live)
      return result instanceof Response ? result : c.json(result)
    } catch (error) {
      // The operator service's failures are typed and one line; the client's mistakes answer 400, the rest 409.
      if (isGuardError(error)) return refuse(c, clientCodes.has(error.code) ? 400 : 409, `${error.code}: ${error.message}`)
      throw error
    }
  }
  app.get('/sessions/:id/docs', (c) => run(c, (service, live) => service.documents(live.id)))
  app.get('/sessions/:id/docs/read', (c) =>
    run(c, async (service, live) => {
      const doc = await service.read(live.id, c.req.query('name') ?? '')
      return { ...doc, version: documentVersion(doc.content) }
    }),
  )
  app.put('/sessions/:id/docs/read', async (c) => {
    const body = await jsonBody(c, SaveBody)
    if (!body.ok) return body.response
    const { name, content, expected, level } = body.value
    return run(c, async (service, live) => ({ ...(await service.write(live.id, name, content, level ?? 'auto', { expected })), version: documentVersion(content) }))
  })
  app.get('/sessions/:id/docs/settings', (c) =>
    run(c, async (service, live) => {
      const documents = await service.documents(live.id)
      return {
        switches: service.switches(),
        switchFields: describe(SWITCH_NAMES, SwitchesSchema.shape),
        settings: service.settings() ?? null,
        settingFields: describe(LIVE_FIELDS, LiveSettingsSchema.shape),
        folder: documents.folder,
        workspaceFolder: documents.workspaceFolder,
      }
    }),
  )
  app.post('/sessions/:id/docs/switches', async (c) => {
    const body = await jsonBody(c, SwitchesSchema.partial())
    return body.ok ? run(c, (service) => service.setSwitches(definedOnly(body.value))) : body.response
  })
  app.post('/sessions/:id/docs/settings', async (c) => {
    const body = await jsonBody(c, LiveSettingsSchema.partial())
    return body.ok ? run(c, (service) => service.updateSettings(definedOnly(body.value))) : body.response
  })
  app.post('/sessions/:id/docs/settings/restore', async (c) => {
    const body = await jsonBody(c, RestoreBody)
    if (!body.ok) return body.response
    return run(c, async (service) => {
      const base = service.settings()?.base
      return base === undefined ? service.updateSettings({}) : service.updateSettings({ [body.value.field]: base[body.value.field] })
    })
  })
  app.get('/sessions/:id/docs/sweep', (c) => run(c, (service, live) => service.previewSweep(live.id)))
  app.post('/sessions/:id/docs/sweep', async (c) => {
    const body = await jsonBody(c, SweepBody)
    return body.ok ? run(c, async (service, live) => ({ removed: await service.sweep(live.id, body.value.names) })) : body.response
  })
  app.get('/sessions/:id/docs/templates', (c) => run(c, async (service) => ({ templates: await service.templates() })))
  app.post('/sessions/:id/docs/templates', async (c) => {
    const body = await jsonBody(c, NameBody)
    return body.ok ? run(c, (service, live) => service.saveTemplate(live.id, body.value.name)) : body.response
  })
  app.post('/sessions/:id/docs/templates/apply', async (c) => {
    const body = await jsonBody(c, NameBody)
    return body.ok ? run(c, (service, live) => service.applyTemplate(live.id, body.value.name)) : body.response
  })
  return app
}
