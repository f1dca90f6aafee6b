// The page's usage line with the model's prices, and reasoning after a reload (issue 21 item 10),
// in headless Chromium against the built `dsh web`: with `model.prices` set the line ends with the
// cost, counted as the chat's status line counts it; the reasoning recorded with an answer is
// still there, collapsed with its length, after the page is loaded again.

import { describe, expect, it } from 'vitest'
import { openPage, ready, shoot, startRig, UI_WAIT_MS, usePageTests } from './web-page.ts'

const tests = usePageTests()

const config = 'model:\n  prices:\n    inputPerMillion: 100\n    outputPerMillion: 200\n    cacheHitPerMillion: 10\n'

describe('dsh web page: cost and stored reasoning', () => {
  it(
    'shows the cost when prices are known; the reasoning survives a reload',
    async () => {
      tests.rig = await startRig([{ reasoning: 'Short and friendly.', text: 'Hello!', usage: { inputTokens: 1000, outputTokens: 200, cacheHitTokens: 750 } }], { files: { 'repo/cfg.yaml': config }, args: ['--config', 'cfg.yaml'] })
      const page = await openPage(tests.browser, tests.rig.web)
      await ready(page)
      await page.getByRole('textbox', { name: 'Message' }).fill('greet me')
      await page.getByRole('textbox', { name: 'Message' }).press('Enter')
      await expect.poll(() => page.locator('.turn.assistant .markdown').textContent(), { timeout: UI_WAIT_MS }).toBe('Hello!')
      // 250 prompt tokens at 100, 750 cache hits at 10, 200 completion tokens at 200 (per million): $0.0725.
      await expect.poll(() => page.getByLabel('Usage').textContent(), { timeout: UI_WAIT_MS }).toBe('context 1.2k of 128k tokens (1%) · cache hits 75% · cost $0.0725')
      await page.reload()
      await ready(page)
      const reasoning = page.locator('details.reasoning')
      await expect.poll(() => reasoning.locator('summary').textContent(), { timeout: UI_WAIT_MS }).toBe('Reasoning (19 characters)')
      expect(await reasoning.getAttribute('open')).toBeNull()
      await reasoning.locator('summary').click()
      expect(await reasoning.locator('.reasoning-text').textContent()).toBe('Short and friendly.')
      expect(await page.locator('.turn.assistant .markdown').textContent()).toBe('Hello!')
      await expect.poll(() => page.getByLabel('Usage').textContent(), { timeout: UI_WAIT_MS }).toContain('cost $0.0725')
      await shoot(page, 'reasoning-after-reload-cost')
      await page.context().close()
    },
    240_000,
  )
})
