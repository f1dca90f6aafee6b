// The page's permission-mode menu against the built `dsh web` in headless Chromium, and its API:
// the menu shows the session's mode (ask, the dsh web default) among the modes it can switch to;
// choosing "Full auto" lets the next bash call run without a card, and a second tab showing the
// session follows the switch; the API refuses a mode of another sandbox shape (409, naming the
// modes it can) and leaves the mode as it was; the history read carries the mode.
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { openPage, openTab, ready, shoot, startRig, UI_WAIT_MS, usePageTests } from './web-page.ts'

const tests = usePageTests()

const bash = (id: string, command: string) => ({ toolCalls: [{ id, name: 'bash', arguments: { command } }] })

interface ModeAnswer {
  readonly current: string
  readonly available: readonly { readonly id: string; readonly name: string; readonly description: string }[]
}

describe('dsh web page: the permission-mode menu', () => {
  it(
    'switches the session from ask to full auto: the next bash call runs without a card, and another tab follows',
    async () => {
      tests.rig = await startRig([bash('c1', 'echo first > first.txt'), { text: 'Asked first.' }, bash('c2', 'echo second > second.txt'), { text: 'Ran the second.' }])
      const { tree, web } = tests.rig
      const page = await openPage(tests.browser, web)
      await ready(page)
      const menu = page.getByRole('combobox', { name: 'Permission mode' })
      expect(await menu.inputValue()).toBe('ask')
      expect(await menu.locator('option').allTextContents()).toEqual(['Ask', 'Auto-edit', 'Full auto'])
      expect(await page.locator('.mode-note').textContent()).toBe('ask before bash, run_code, web_fetch')
      // In ask, the first command waits for an answer.
      await page.getByRole('textbox', { name: 'Message' }).fill('write the first file')
      await page.getByRole('textbox', { name: 'Message' }).press('Enter')
      const card = page.getByRole('alertdialog')
      await card.waitFor({ timeout: UI_WAIT_MS })
      await card.getByRole('button', { name: 'Reject' }).click()
      await page.getByText('Asked first.').waitFor({ timeout: UI_WAIT_MS })
      expect(existsSync(tree.path('repo/first.txt'))).toBe(false)
      const other = await openTab(page.context(), page.url())
      await ready(other)
      await menu.selectOption('full-auto')
      await expect.poll(() => other.getByRole('combobox', { name: 'Permission mode' }).inputValue(), { timeout: UI_WAIT_MS }).toBe('full-auto')
      // Each tab shows the mode the server's event brings; this one's may come after the other's.
      await expect.poll(() => page.locator('.mode-note').textContent(), { timeout: UI_WAIT_MS }).toBe('full-auto (shell sandboxed)')
      await shoot(page, 'mode-menu-full-auto')
      await page.getByRole('textbox', { name: 'Message' }).fill('write the second file')
      await page.getByRole('textbox', { name: 'Message' }).press('Enter')
      await page.getByText('Ran the second.').waitFor({ timeout: UI_WAIT_MS })
      expect(existsSync(tree.path('repo/second.txt'))).toBe(true)
      expect(await card.count()).toBe(0)
      await page.context().close()
    },
    240_000,
  )

  it(
    'refuses through the API a mode of another sandbox shape or an unknown one, keeping the mode; the history carries it',
    async () => {
      tests.rig = await startRig([{ text: 'hi' }])
      const { web } = tests.rig
      const sessions = await web.api<{ sessions: { id: string }[] }>('GET', '/api/sessions')
      const id = sessions.body.sessions[0]?.id ?? ''
      const before = await web.api<ModeAnswer>('GET', `/api/sessions/${id}/mode`)
      expect(before.status).toBe(200)
      expect(before.body.current).toBe('ask')
      expect(before.body.available.map((mode) => mode.id)).toEqual(['ask', 'auto-edit', 'full-auto'])
      const refused = await web.api<{ error: string }>('POST', `/api/sessions/${id}/mode`, { mode: 'danger-full-access' })
      expect(refused.status).toBe(409)
      expect(refused.body.error).toContain('mode danger-full-access: this session can switch to ask, auto-edit, full-auto')
      expect((await web.api('POST', `/api/sessions/${id}/mode`, { mode: 'yolo' })).status).toBe(409)
      expect((await web.api('POST', `/api/sessions/${id}/mode`, { mode: 'ask', extra: 1 })).status).toBe(400)
      expect((await web.api('POST', '/api/sessions/no-such-session/mode', { mode: 'ask' })).status).toBe(404)
      expect((await web.api<ModeAnswer>('GET', `/api/sessions/${id}/mode`)).body.current).toBe('ask')
      const switched = await web.api<{ current: string }>('POST', `/api/sessions/${id}/mode`, { mode: 'auto-edit' })
      expect(switched).toEqual({ status: 200, body: { current: 'auto-edit' } })
      const history = await web.api<{ mode: ModeAnswer }>('GET', `/api/sessions/${id}/history`)
      expect(history.body.mode.current).toBe('auto-edit')
    },
    120_000,
  )
})
