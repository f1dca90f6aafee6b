/**
 * The page: `index.html`, `app.js` and `app.css` from the built bundle directory, read once at
 * start-up and served with a strict Content-Security-Policy (only this origin's script and style,
 * no inline code, no frames). Nothing is fetched from elsewhere at run time.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Hono, type Context } from 'hono'

/** Files of the bundle and their types. */
const files = { 'app.js': 'text/javascript; charset=utf-8', 'app.css': 'text/css; charset=utf-8' } as const

/** Headers of every page answer. */
export const pageHeaders: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
}

/** The tab icon: a small terminal prompt, drawn here so no file or request leaves this origin. */
const favicon = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#2458d3"/><path d="M8 10l7 6-7 6" stroke="#fff" stroke-width="3" fill="none" stroke-linecap="round" stroke-linejoin="round"/><path d="M17 23h8" stroke="#fff" stroke-width="3" stroke-linecap="round"/></svg>'

const icon = (c: Context): Response => c.body(favicon, 200, { ...pageHeaders, 'content-type': 'image/svg+xml' })

const missingPage = (dir: string): string => `<!doctype html><meta charset="utf-8"><title>dsh web</title><p>The page bundle is missing in ${dir.replace(/[<>&"]/g, '')}; build it with npm run build.</p>`

/** Routes serving the bundle in `dir`. */
export function pageRoutes(dir: string): Hono {
  const app = new Hono()
  const read = (name: string): string | undefined => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : undefined)
  const index = read('index.html') ?? missingPage(dir)
  const assets = new Map(Object.entries(files).map(([name, type]) => [name, { body: read(name), type }]))
  app.get('/', (c) => c.html(index, 200, pageHeaders))
  app.get('/assets/favicon.svg', icon)
  app.get('/favicon.ico', icon)
  app.get('/assets/:name', (c) => {
    const asset = assets.get(c.req.param('name'))
    if (asset?.body === undefined) return c.json({ error: `no asset ${JSON.stringify(c.req.param('name'))}` }, 404)
    return c.body(asset.body, 200, { ...pageHeaders, 'content-type': asset.type })
  })
  return app
}
