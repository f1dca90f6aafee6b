// Which copy of a maintainer document the page saves (issue 21 item 9), in headless Chromium against
// the built `dsh web`: the documents view says whether a save goes to this session's folder or to
// the workspace's (shared by every session) and lets the person choose, as `dsh docs edit --level`;
// the path it shows is the path written, and the settings view names both folders.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

import { describe, expect, it } from 'vitest'
import { openPage, ready, shoot, startRig, UI_WAIT_MS, usePageTests } from './web-page.ts'

const tests = usePageTests()

describe('dsh web page: the level a document is saved at', () => {
  it(
    'shows where a save goes, switches between the session and the workspace copy, and writes exactly the path it showed',
    async () => {
      tests.rig = await startRig([], { files: { 'repo/cfg.yaml': 'maintainerDocGuard:\n  enabled: true\n' }, args: ['--config', 'cfg.yaml'] })
      const docs = tests.rig.tree.path('repo/.dsh-maintainer-doc-guard')
      const page = await openPage(tests.browser, tests.rig.web)
      await ready(page)
      const sessions = await tests.rig.web.api<{ sessions: { id: string }[] }>('GET', '/api/sessions')
      const id = sessions.body.sessions[0]?.id ?? ''
      await page.getByRole('tab', { name: 'Maintainer documents' }).click()
      await page.getByRole('tab', { name: 'plan.md' }).click({ timeout: UI_WAIT_MS })
      const level = page.getByRole('group', { name: 'Save to' })
      // A blank plan.md: `auto` (the CLI's default) writes the workspace copy, and the page says so.
      expect(await level.getByRole('radio', { name: 'the workspace (every session here)' }).isChecked()).toBe(true)
      expect(await level.locator('.save-path').textContent()).toBe(`Saves to ${join(docs, 'plan.md')}`)
      await level.getByRole('radio', { name: 'this session only' }).check()
      expect(await level.locator('.save-path').textContent()).toBe(`Saves to ${join(docs, id, 'plan.md')}`)
      await page.getByRole('textbox', { name: 'plan.md' }).fill('# Plan\n\nOnly this session.\n')
      await shoot(page, 'documents-level-session')
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      await expect.poll(() => page.getByRole('status').textContent(), { timeout: UI_WAIT_MS }).toBe(`Saved to ${join(docs, id, 'plan.md')}`)
      expect(readFileSync(join(docs, id, 'plan.md'), 'utf8')).toBe('# Plan\n\nOnly this session.\n')
      expect(existsSync(join(docs, 'plan.md'))).toBe(false)
      await level.getByRole('radio', { name: 'the workspace (every session here)' }).check()
      await page.getByRole('textbox', { name: 'plan.md' }).fill('# Plan\n\nEvery session.\n')
      await page.getByRole('button', { name: 'Save', exact: true }).click()
      await expect.poll(() => page.getByRole('status').textContent(), { timeout: UI_WAIT_MS }).toBe(`Saved to ${join(docs, 'plan.md')}`)
      expect(readFileSync(join(docs, 'plan.md'), 'utf8')).toBe('# Plan\n\nEvery session.\n')
      expect(readFileSync(join(docs, id, 'plan.md'), 'utf8')).toBe('# Plan\n\nOnly this session.\n')
      await page.getByRole('button', { name: 'Settings' }).click()
      await page.getByText('Workspace documents folder (shared by every session)').waitFor({ timeout: UI_WAIT_MS })
      expect(await page.locator('fieldset code.path').allTextContents()).toEqual(expect.arrayContaining([join(docs, id), docs]))
      await page.getByText('Workspace documents folder (shared by every session)').scrollIntoViewIfNeeded()
      await shoot(page, 'documents-level-settings')
      await page.context().close()
    },
    240_000,
  )
})
