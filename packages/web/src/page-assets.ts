/**
 * The page: `index.html`, `app.js` and `app.css` from the built bundle directory, read once at
 * start-up and served with a strict Content-Security-Policy (only this origin's script and style,
 * no inline code, no frames). Nothing is fetched from elsewhere at run time.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Hono } from 'hono'

/** Files of the bundle and their types. */
const files = { 'app.js': 'text/javascript; charset=utf-8', 'app.css': 'text/css; charset=utf-8' } as const

/** Headers of every page answer. */
export const pageHeaders: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
}

const missingPage = (dir: string): string => `<!doctype html><meta charset="utf-8"><title>dsh web</title><p>The page bundle is missing in ${dir.replace(/[<>&"]/g, '')}; build it with npm run build.</p>`

/** Routes serving the bundle in `dir`. */
export function pageRoutes(dir: string): Hono {
  const app = new Hono()
  const read = (name: string): string | undefined => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : undefined)
  const index = read('index.html') ?? missingPage(dir)
  const assets = new Map(Object.entries(files).map(([name, type]) => [name, { body: read(name), type }]))
  app.get('/', (c) => c.html(index, 200, pageHeaders))
  app.get('/assets/:name', (c) => {
    const asset = assets.get(c.req.param('name'))
    if (asset?.body === undefined) return c.json({ error: `no asset ${JSON.stringify(c.req.param('name'))}` }, 404)
    return c.body(asset.body, 200, { ...pageHeaders, 'content-type': asset.type })
  })
  return app
}
