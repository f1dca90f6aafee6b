// A running bash call's output on the page (issue 21 item 2) in headless Chromium against the
// built `dsh web`: lines appear under its row while it runs (the command waits for a file the test
// writes — a handshake, no sleeps in the test), then the live lines go and the row's summary says
// how it ended (exit code, line count); opening the row shows all the output its result kept.

import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { openPage, ready, shoot, startRig, UI_WAIT_MS, usePageTests } from './web-page.ts'

const tests = usePageTests()

/** Prints a line, waits for `go` in the working directory, prints two more and exits 3. */
const command = 'echo "first live line"; while [ ! -e go ]; do sleep 0.05; done; echo "second live line"; echo "third live line"; exit 3'

describe('dsh web page: live tool output', () => {
  it(
    'shows the lines of a running bash call under its row, then collapses them to "exit 3 · 3 lines"; opening the row shows them all',
    async () => {
      tests.rig = await startRig([{ toolCalls: [{ id: 'c1', name: 'bash', arguments: { command } }] }, { text: 'It exited 3.' }], { args: ['--permission-mode', 'full-auto'] })
      const page = await openPage(tests.browser, tests.rig.web)
      await ready(page)
      await page.getByRole('textbox', { name: 'Message' }).fill('run the slow one')
      await page.getByRole('textbox', { name: 'Message' }).press('Enter')
      const live = page.locator('.tool-live')
      await expect.poll(() => live.textContent().catch(() => ''), { timeout: UI_WAIT_MS }).toBe('first live line')
      expect(await page.locator('.tool .tool-state').textContent()).toBe('running…')
      await shoot(page, 'live-output-running')
      writeFileSync(tests.rig.tree.path('repo/go'), '')
      await page.getByText('It exited 3.').waitFor({ timeout: UI_WAIT_MS })
      expect(await live.count()).toBe(0)
      const row = page.locator('details.tool')
      expect(await row.locator('.tool-state').textContent()).toBe('exit 3 · 3 lines')
      expect(await row.getAttribute('class')).toContain('failed')
      expect(await row.evaluate((element) => (element instanceof HTMLDetailsElement ? element.open : undefined))).toBe(false)
      await shoot(page, 'live-output-done')
      await row.locator('summary').click()
      expect(await row.locator('.tool-result').textContent()).toBe('first live line\nsecond live line\nthird live line\n\n[Exit code: 3]')
      await shoot(page, 'live-output-expanded')
      await page.context().close()
    },
    240_000,
  )
})
