// The page's permission card for web_fetch, in headless Chromium against the built `dsh web` (ask
// mode, the page's default) and a real HTTP server on loopback (reachable with
// agent.webFetchPrivateNetwork: true): the card offers "always" for the URL's host, not the whole
// tool; after it, a second fetch from that host runs without a card and both pages reach the model.
import { afterEach, describe, expect, it } from 'vitest'
import { startPageServer, type PageServer } from '@dsh/testkit'
import { openPage, ready, shoot, startRig, UI_WAIT_MS, usePageTests } from './web-page.ts'

const tests = usePageTests()
let server: PageServer | undefined

afterEach(async () => {
  await server?.close()
  server = undefined
})

/** Serves every path as a page naming it; resolves with the port. */
async function start(): Promise<number> {
  server = await startPageServer((request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(`<html><body><p>page ${request.url ?? ''}</p></body></html>`))
  return server.port
}

const fetchCall = (id: string, url: string) => ({ toolCalls: [{ id, name: 'web_fetch', arguments: { url } }] })

describe('dsh web page: "always" for a fetch', () => {
  it(
    'offers the host, and a second fetch from it needs no card',
    async () => {
      const port = await start()
      tests.rig = await startRig([fetchCall('f1', `http://127.0.0.1:${port}/one`), fetchCall('f2', `http://127.0.0.1:${port}/two`), { text: 'Both read.' }], {
        files: { 'private.yaml': 'agent:\n  webFetchPrivateNetwork: true\n' },
        args: (path) => ['--config', path('private.yaml')],
      })
      const page = await openPage(tests.browser, tests.rig.web)
      await ready(page)
      await page.getByRole('textbox', { name: 'Message' }).fill('read both pages')
      await page.getByRole('textbox', { name: 'Message' }).press('Enter')
      const card = page.getByRole('alertdialog')
      await card.waitFor({ timeout: UI_WAIT_MS })
      expect(await card.getByRole('button').allTextContents()).toEqual(['Allow once', 'Always allow fetches from 127.0.0.1', 'Reject'])
      await shoot(page, 'approval-fetch-host')
      await card.getByRole('button', { name: 'Always allow fetches from 127.0.0.1' }).click()
      await page.getByText('Both read.').waitFor({ timeout: UI_WAIT_MS })
      expect(await page.getByRole('alertdialog').count()).toBe(0)
      const second = page.locator('.tool').nth(1)
      await second.locator('summary').click()
      expect(await second.locator('.tool-result').textContent()).toContain('page /two')
      await page.context().close()
    },
    240_000,
  )
})
