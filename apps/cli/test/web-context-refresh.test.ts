// The page's Context tab after a turn, in headless Chromium against the built `dsh web`: the
// instruction files the turn loaded (a nested AGENTS.md the model's read reached) show there
// without pressing Refresh, where before the tab kept what it read when the session opened.

import { describe, expect, it } from 'vitest'
import { openPage, ready, startRig, UI_WAIT_MS, usePageTests } from './web-page.ts'

const tests = usePageTests()

describe('dsh web page: the Context tab follows the session', () => {
  it(
    'reads the session again when a turn ends: the nested instruction file it loaded is listed',
    async () => {
      tests.rig = await startRig([{ toolCalls: [{ id: 'r1', name: 'read', arguments: { file_path: 'pkg/notes.txt' } }] }, { text: 'Read the notes.' }], { files: { 'repo/pkg/AGENTS.md': 'Nested rule.\n', 'repo/pkg/notes.txt': 'notes\n' } })
      const page = await openPage(tests.browser, tests.rig.web)
      await ready(page)
      await page.getByRole('tab', { name: 'Context' }).click()
      const session = page.locator('.context-panel pre.report').first()
      await expect.poll(async () => session.textContent(), { timeout: UI_WAIT_MS }).not.toContain('pkg/AGENTS.md')
      await page.getByRole('textbox', { name: 'Message' }).fill('read the notes')
      await page.getByRole('textbox', { name: 'Message' }).press('Enter')
      await page.getByText('Read the notes.').waitFor({ timeout: UI_WAIT_MS })
      await expect.poll(async () => session.textContent(), { timeout: UI_WAIT_MS }).toContain('pkg/AGENTS.md')
      await page.context().close()
    },
    240_000,
  )
})
