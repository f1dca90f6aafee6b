// Desktop notifications for waiting questions (issue 21 item 8, opt-in), in headless Chromium
// against the built `dsh web` with the notification permission granted through the browser
// context: off by default; switched on, a question that arrives while the page is visible raises
// nothing, one that arrives while it is hidden raises one notification naming the tool and command.
// (The page's visibility is driven by the test: headless pages are always "visible".)

import { describe, expect, it } from 'vitest'
import { ready, shoot, startRig, UI_WAIT_MS, usePageTests } from './web-page.ts'

const tests = usePageTests()

interface Note {
  readonly title: string
  readonly body?: string
  readonly tag?: string
}
declare global {
  interface Window {
    /** Notifications the page raised (recorded by the test's init script). */
    notes: Note[]
    /** Makes the page report itself hidden (true) or visible. */
    setHidden: (hidden: boolean) => void
  }
}

/** Records every Notification the page creates and lets the test say whether the page is hidden. */
function instrument(): void {
  const Original = window.Notification
  window.notes = []
  class Recorded extends Original {
    constructor(title: string, options?: NotificationOptions) {
      super(title, options)
      window.notes.push({ title, ...(options?.body === undefined ? {} : { body: options.body }), ...(options?.tag === undefined ? {} : { tag: options.tag }) })
    }
  }
  window.Notification = Recorded
  let hidden = false
  window.setHidden = (value) => {
    hidden = value
  }
  Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') })
}

const bash = (id: string, command: string) => ({ toolCalls: [{ id, name: 'bash', arguments: { command } }] })

describe('dsh web page: desktop notifications', () => {
  it(
    'are off until switched on; then only a question arriving while the page is hidden raises one',
    async () => {
      tests.rig = await startRig([bash('c1', 'echo seen'), bash('c2', 'echo while away\necho more'), { text: 'Both ran.' }])
      const context = await tests.browser.newContext({ locale: 'en-US', permissions: ['notifications'] })
      context.setDefaultTimeout(UI_WAIT_MS)
      await context.addInitScript(instrument)
      const page = await context.newPage()
      await page.goto(tests.rig.web.url)
      await ready(page)
      const toggle = page.getByRole('checkbox', { name: 'Desktop notifications' })
      expect(await toggle.isChecked()).toBe(false)
      // click, not check: the switch turns on once the permission answer comes back, after the click.
      await toggle.click()
      await expect.poll(() => toggle.isChecked(), { timeout: UI_WAIT_MS }).toBe(true)
      await page.getByRole('textbox', { name: 'Message' }).fill('run two')
      await page.getByRole('textbox', { name: 'Message' }).press('Enter')
      const card = page.getByRole('alertdialog')
      await expect.poll(() => card.locator('pre.code').textContent().catch(() => ''), { timeout: UI_WAIT_MS }).toBe('echo seen')
      expect(await page.evaluate(() => window.notes)).toEqual([])
      await shoot(page, 'notifications-switch')
      await page.evaluate(() => window.setHidden(true))
      await card.getByRole('button', { name: 'Allow once' }).click()
      await expect.poll(() => page.evaluate(() => window.notes), { timeout: UI_WAIT_MS }).toEqual([{ title: 'dsh web: a question waits for your answer', body: 'bash: echo while away', tag: expect.stringMatching(/^dsh-question-/) }])
      await page.evaluate(() => window.setHidden(false))
      await card.getByRole('button', { name: 'Allow once' }).click()
      await page.getByText('Both ran.').waitFor({ timeout: UI_WAIT_MS })
      // The choice is kept: a reload finds the switch on.
      await page.reload()
      await ready(page)
      expect(await page.getByRole('checkbox', { name: 'Desktop notifications' }).isChecked()).toBe(true)
      await context.close()
    },
    240_000,
  )
})
