// The web host's cookie in a real browser (headless Chromium, Debian's /usr/bin/chromium) next to a
// second local server, as when the agent starts a dev server and the user opens it in the same
// browser: the printed URL moves the page to this run's dsh-….localhost name, the chat works there,
// and the other server — on 127.0.0.1 or localhost, any port — never receives a dsh cookie or the
// token. Also: a risky folder (the home directory) is added with a visible warning.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { mkdirSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { writeScript } from './run-dsh.ts'
import { startWeb, type WebProcess } from './web-harness.ts'

const shots = process.env['DSH_WEB_SCREENSHOTS'] ?? join(tmpdir(), 'dsh-web-screenshots')
let browser: Browser
let tree: TempTree | undefined
let web: WebProcess | undefined
let other: Server | undefined

beforeAll(async () => {
  mkdirSync(shots, { recursive: true })
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
}, 60_000)
afterAll(async () => browser?.close())
afterEach(async () => {
  await web?.stop()
  web = undefined
  await new Promise<void>((resolve) => (other === undefined ? resolve() : other.close(() => resolve())))
  other = undefined
  await tree?.dispose()
  tree = undefined
})

/** A plain local server that records the headers of every request it gets. */
async function recordingServer(seen: IncomingHttpHeaders[]): Promise<number> {
  other = createServer((req, res) => {
    seen.push(req.headers)
    res.setHeader('content-type', 'text/html')
    res.end('<!doctype html><title>dev server</title><p>dev server</p>')
  })
  const server = other
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('the recording server has no port')
  return address.port
}

describe('dsh web: the cookie stays with dsh web', () => {
  it('opens the chat on the private host name, and another local server never sees the cookie or the token', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'home/': null })
    const script = writeScript(tree.path('.'), 'script.json', { responses: [{ text: 'Hello from the private host.' }] })
    web = await startWeb(['--model', `scripted:${script}`], { cwd: tree.path('repo'), home: tree.path('home') })
    const seen: IncomingHttpHeaders[] = []
    const otherPort = await recordingServer(seen)
    const context = await browser.newContext({ locale: 'en-US' })
    const page = await context.newPage()
    await page.goto(web.url)
    const landed = new URL(page.url())
    expect(landed.hostname).toMatch(/^dsh-[0-9a-f]{12}\.localhost$/)
    expect(landed.search).toBe('')
    await page.getByRole('textbox', { name: 'Message' }).fill('hi')
    await page.keyboard.press('Enter')
    await page.getByText('Hello from the private host.').waitFor()
    await page.screenshot({ path: join(shots, 'private-host.png') })
    const cookies = await context.cookies()
    expect(cookies.map((cookie) => ({ name: cookie.name, domain: cookie.domain }))).toEqual([{ name: `dsh_web_${web.port}`, domain: landed.hostname }])
    expect(cookies[0]?.value).not.toBe(web.token)
    // The person opens the dev server in the same browser, under both loopback names, and a page of it loads an image of dsh web's port.
    for (const origin of [`http://127.0.0.1:${otherPort}`, `http://localhost:${otherPort}`]) {
      const devPage = await context.newPage()
      await devPage.goto(`${origin}/`)
      await devPage.close()
    }
    expect(seen.length).toBeGreaterThanOrEqual(2)
    for (const headers of seen) {
      expect(headers.cookie ?? '').not.toContain('dsh_web_')
      expect(JSON.stringify(headers)).not.toContain(web.token)
    }
    await context.close()
  }, 90_000)

  it('adds the home directory as a folder with a warning saying why it is risky', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'home/': null, 'user/': null })
    const script = writeScript(tree.path('.'), 'script.json', { responses: [] })
    web = await startWeb(['--model', `scripted:${script}`], { cwd: tree.path('repo'), home: tree.path('home'), env: { HOME: tree.path('user') } })
    const state = await web.api<{ firstSession: string }>('GET', '/api/state')
    const added = await web.api<{ warning: string | null }>('POST', `/api/sessions/${state.body.firstSession}/folders`, { path: tree.path('user') })
    expect(added.status).toBe(200)
    expect(added.body.warning).toBe(`warning: ${tree.path('user')} is your home directory: every project, key and setting in it would be writable; shell commands of every session in this project may write there`)
    const context = await browser.newContext({ locale: 'en-US' })
    const page = await context.newPage()
    await page.goto(web.url)
    await page.getByRole('button', { name: 'Folders' }).click()
    await page.getByRole('textbox', { name: 'Path' }).fill(tree.path('home'))
    await page.getByRole('button', { name: 'Add…' }).click()
    await page.getByRole('status').filter({ hasText: '$DSH_HOME' }).waitFor()
    await page.screenshot({ path: join(shots, 'folders-warning.png') })
    await context.close()
  }, 90_000)
})
