// `@` completion in the dsh web page's Message box, in headless Chromium against the built
// `dsh web`: typing `@serv` lists the project's matching paths (the ignored build directory left
// out), Tab puts the first in place of the token with a space after it, a directory keeps
// completing into itself, and the sent prompt names the file as completed; the route refuses a
// prefix that is not one @ token. Frames are made late, so a completion that waited for one to
// place the caret would lose the race with the next key.
import { describe, expect, it } from 'vitest'
import { openPage, ready, shoot, startRig, UI_WAIT_MS, usePageTests } from './web-page.ts'

const tests = usePageTests()

/** Animation frames that arrive half a second late, installed before the page's scripts run. */
function slowFrames(): void {
  const frame = window.requestAnimationFrame.bind(window)
  window.requestAnimationFrame = (callback) => window.setTimeout(() => frame(callback), 500)
}

describe('dsh web page: @ completion', () => {
  it(
    'lists fuzzy matches as you type, and Tab completes the first',
    async () => {
      tests.rig = await startRig([{ text: 'Looked.' }], { files: { 'repo/.gitignore': 'dist/\n', 'repo/src/server.ts': '', 'repo/src/services/user-service.ts': '', 'repo/dist/server.js': '' } })
      // A page whose frames come late (a busy machine, a background tab): nothing a completion
      // does may wait for one, or the key typed right after Tab lands in the wrong place.
      const page = await openPage(tests.browser, tests.rig.web, { init: slowFrames })
      await ready(page)
      const box = page.getByRole('textbox', { name: 'Message' })
      await box.pressSequentially('look at @serv')
      const list = page.getByRole('listbox', { name: 'Paths' })
      await expect.poll(() => list.locator('li').allTextContents(), { timeout: UI_WAIT_MS }).toEqual(['server.ts src/', 'services/ src/', 'user-service.ts src/services/'])
      await shoot(page, 'mention-list')
      await box.press('Tab')
      expect(await box.inputValue()).toBe('look at @src/server.ts ')
      await box.pressSequentially('and @src/servi')
      await expect.poll(() => list.locator('li').first().textContent(), { timeout: UI_WAIT_MS }).toBe('services/ src/')
      await box.press('Tab')
      expect(await box.inputValue()).toBe('look at @src/server.ts and @src/services/')
      await expect.poll(() => list.locator('li').allTextContents(), { timeout: UI_WAIT_MS }).toEqual(['user-service.ts src/services/'])
      await list.locator('li').first().click()
      expect(await box.inputValue()).toBe('look at @src/server.ts and @src/services/user-service.ts ')
      await box.press('Enter')
      await page.getByText('Looked.').waitFor({ timeout: UI_WAIT_MS })
      // Both files went with the prompt; the note stays after a reload (it is in the history).
      const note = 'Attached: src/server.ts, src/services/user-service.ts'
      expect(await page.locator('.attached-note').textContent()).toBe(note)
      await page.reload()
      await ready(page)
      await page.getByText(note).waitFor({ timeout: UI_WAIT_MS })
      await shoot(page, 'attached-note')
      const statuses = await page.evaluate(async () => {
        const listed: unknown = await (await fetch('/api/sessions')).json()
        const rows: unknown = typeof listed === 'object' && listed !== null ? Reflect.get(listed, 'sessions') : undefined
        const first: unknown = Array.isArray(rows) ? rows[0] : undefined
        const id = String(typeof first === 'object' && first !== null ? Reflect.get(first, 'id') : '')
        const ask = async (prefix: string) => (await fetch(`/api/sessions/${id}/mentions?prefix=${encodeURIComponent(prefix)}`)).status
        return [await ask('@a b'), await ask('@src/'), await ask('@x@y')]
      })
      expect(statuses).toEqual([400, 200, 400])
      await page.context().close()
    },
    240_000,
  )
})
