// The MCP servers on the page (issue 23 item 10) in headless Chromium against the built `dsh web`
// with a real server from npm (@modelcontextprotocol/server-everything) and one that cannot start:
// the Context tab lists both with their states, and a call of an MCP tool shows as `server › tool`.

import { describe, expect, it } from 'vitest'
import { serverScript } from './mcp-servers.ts'
import { openPage, ready, shoot, startRig, UI_WAIT_MS, usePageTests } from './web-page.ts'

const tests = usePageTests()

function servers(): string {
  return JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [serverScript('server-everything')] }, ghost: { command: 'no-such-mcp-command-anywhere' } } })
}

describe('dsh web page: MCP servers', () => {
  it(
    'the Context tab lists the servers with their states; an MCP tool row reads "everything › echo"',
    async () => {
      // A call waits for its server to start or fail, so after this step both states are settled.
      const calls = [
        { id: 'c1', name: 'mcp__everything__echo', arguments: { message: 'from the page' } },
        { id: 'c2', name: 'mcp__ghost__anything', arguments: {} },
      ]
      tests.rig = await startRig([{ toolCalls: calls }, { text: 'Echoed.' }], { files: { 'repo/servers.json': servers() }, args: ['--mcp-config', 'servers.json', '--permission-mode', 'full-auto'] })
      const page = await openPage(tests.browser, tests.rig.web)
      await ready(page)
      await page.getByRole('textbox', { name: 'Message' }).fill('echo something')
      await page.getByRole('textbox', { name: 'Message' }).press('Enter')
      await page.getByText('Echoed.').waitFor({ timeout: UI_WAIT_MS })
      const first = page.locator('details.tool').first()
      expect(await first.locator('.tool-name').textContent()).toBe('everything › echo')
      expect(await first.locator('.tool-name').getAttribute('title')).toBe('mcp__everything__echo')
      await page.getByRole('tab', { name: 'Context' }).click()
      await page.getByRole('button', { name: 'Refresh' }).click()
      const table = page.locator('table.mcp-servers')
      await expect.poll(async () => (await table.locator('tbody tr').allInnerTexts()).map((row) => row.split('\t').map((cell) => cell.trim())), { timeout: UI_WAIT_MS }).toEqual([
        ['everything', 'stdio', '--mcp-config', expect.stringMatching(/^connected, \d+ tools$/)],
        ['ghost', 'stdio', '--mcp-config', 'failed: command not found: no-such-mcp-command-anywhere'],
      ])
      await table.scrollIntoViewIfNeeded()
      await shoot(page, 'mcp-context-tab')
      await page.context().close()
    },
    240_000,
  )
})
