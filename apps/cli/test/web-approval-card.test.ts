// The page's permission card for compound commands (issue 21 item 1) in headless Chromium against
// the built `dsh web`: "always" for `a && b` offers the prefixes of its parts, never the whole
// tool; the parts then run unasked in another order; a command with a new part asks again and
// now offers the whole tool besides; Reject carries the note typed under the buttons to the model.

import { describe, expect, it } from 'vitest'
import { openPage, ready, shoot, startRig, UI_WAIT_MS, usePageTests } from './web-page.ts'

const tests = usePageTests()

const bash = (id: string, command: string) => ({ toolCalls: [{ id, name: 'bash', arguments: { command } }] })

describe('dsh web page: "always" for a compound command', () => {
  it(
    'offers the parts\' prefixes, not the whole tool; the parts run unasked after; a new part asks and offers the whole tool; Reject sends its note',
    async () => {
      tests.rig = await startRig([bash('c1', 'ls && wc -l AGENTS.md'), bash('c2', 'wc -c AGENTS.md; ls -a'), bash('c3', 'ls | sort'), { text: 'All three tried.' }])
      const page = await openPage(tests.browser, tests.rig.web)
      await ready(page)
      await page.getByRole('textbox', { name: 'Message' }).fill('list and count')
      await page.getByRole('textbox', { name: 'Message' }).press('Enter')
      const card = page.getByRole('alertdialog')
      await card.waitFor({ timeout: UI_WAIT_MS })
      expect(await card.locator('pre.code').textContent()).toBe('ls && wc -l AGENTS.md')
      expect(await card.getByRole('button').allTextContents()).toEqual(['Allow once', 'Always allow each part: “ls …”, “wc …”', 'Reject'])
      await shoot(page, 'approval-compound-first')
      await card.getByRole('button', { name: 'Always allow each part: “ls …”, “wc …”' }).click()
      // The second command is made of the same parts: it runs without a card; the third asks.
      await expect.poll(() => card.locator('pre.code').textContent().catch(() => ''), { timeout: UI_WAIT_MS }).toBe('ls | sort')
      expect(await page.locator('.tool').count()).toBe(3)
      expect(await card.getByRole('button').allTextContents()).toEqual(['Allow once', 'Always allow each part: “ls …”, “sort …”', 'Always allow every bash call', 'Reject'])
      await card.getByRole('textbox', { name: 'Note for the model (optional, sent with Reject)' }).fill('use find instead')
      await shoot(page, 'approval-compound-again')
      await card.getByRole('button', { name: 'Reject' }).click()
      await page.getByText('All three tried.').waitFor({ timeout: UI_WAIT_MS })
      const third = page.locator('.tool').nth(2)
      await third.locator('summary').click()
      expect(await third.locator('.tool-result').textContent()).toContain('The user said: "use find instead"')
      await page.context().close()
    },
    240_000,
  )
})
