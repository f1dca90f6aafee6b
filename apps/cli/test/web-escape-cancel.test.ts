// Two of the page's small keys and buttons (issue 21 item 12) in headless Chromium against the
// built `dsh web`: Esc in the message box cancels a running turn (the draft stays), and an error
// banner can be dismissed.

import { describe, expect, it } from 'vitest'
import { openPage, ready, startRig, UI_WAIT_MS, usePageTests } from './web-page.ts'

const tests = usePageTests()

describe('dsh web page: Esc and the error banner', () => {
  it(
    'Esc in the message box cancels the running turn and keeps the draft; a banner goes with Dismiss',
    async () => {
      // The answer holds before its first piece until cancelled (no release file is ever written).
      tests.rig = await startRig((path) => [{ text: 'never shown', holdAfter: 0, releaseFile: path('never') }])
      const page = await openPage(tests.browser, tests.rig.web)
      await ready(page)
      const message = page.getByRole('textbox', { name: 'Message' })
      await message.fill('start talking')
      await message.press('Enter')
      await expect.poll(() => page.getByRole('button', { name: 'Cancel', exact: true }).isEnabled(), { timeout: UI_WAIT_MS }).toBe(true)
      await message.fill('a half-written next question')
      await message.press('Escape')
      await expect.poll(() => page.locator('.notice').last().textContent(), { timeout: UI_WAIT_MS }).toBe('The turn was cancelled.')
      expect(await message.inputValue()).toBe('a half-written next question')
      // A problem banner: the browser refuses notifications (no permission granted in this context).
      // click, not check: the switch goes back off once the browser refuses, which check() would call a failed click.
      await page.getByRole('checkbox', { name: 'Desktop notifications' }).click()
      const banner = page.locator('.error.banner')
      await expect.poll(() => banner.textContent(), { timeout: UI_WAIT_MS }).toContain('The browser did not allow notifications')
      expect(await page.getByRole('checkbox', { name: 'Desktop notifications' }).isChecked()).toBe(false)
      await banner.getByRole('button', { name: 'Dismiss' }).click()
      await expect.poll(() => banner.count()).toBe(0)
      await page.context().close()
    },
    240_000,
  )
})
