// The task checklist on the dsh web page, in headless Chromium against the built `dsh web`: a
// successful todo_write row opens on its checklist (done struck through, the current item marked)
// with its progress as the summary; a refused one stays closed and shows its arguments and error;
// while the turn goes on (the answer holds until a file exists) the open items are pinned above
// the Message box, and the pin goes when the turn ends. A session compacted in dsh chat and opened
// on the page (its todo_write rows summarised away) shows where the compaction was, with the
// summary, and still pins the list its log keeps.
import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { runDshPiped } from './chat-harness.ts'
import { writeScript } from './run-dsh.ts'
import { openPage, ready, shoot, startRig, UI_WAIT_MS, usePageTests } from './web-page.ts'

const tests = usePageTests()

const todos = [
  { content: 'Read the failing test', status: 'completed' },
  { content: 'Fix the parser', status: 'in_progress' },
  { content: 'Run the suite', status: 'pending' },
]
const refused = [
  { content: 'A', status: 'in_progress' },
  { content: 'B', status: 'in_progress' },
]

describe('dsh web page: the task checklist', () => {
  it(
    'opens a todo_write row on its checklist and keeps a refused one closed',
    async () => {
      tests.rig = await startRig([{ toolCalls: [{ id: 'c1', name: 'todo_write', arguments: { todos } }] }, { toolCalls: [{ id: 'c2', name: 'todo_write', arguments: { todos: refused } }] }, { text: 'Planned.' }])
      const page = await openPage(tests.browser, tests.rig.web)
      await ready(page)
      await page.getByRole('textbox', { name: 'Message' }).fill('plan the fix')
      await page.getByRole('textbox', { name: 'Message' }).press('Enter')
      await page.getByText('Planned.').waitFor({ timeout: UI_WAIT_MS })
      const [good, bad] = [page.locator('details.tool').nth(0), page.locator('details.tool').nth(1)]
      expect(await good.evaluate((element) => (element instanceof HTMLDetailsElement ? element.open : undefined))).toBe(true)
      expect(await good.locator('.tool-summary').textContent()).toBe('1 of 3 completed')
      expect(await good.locator('.todo-list li').allTextContents()).toEqual(['✔ Read the failing test', '▸ Fix the parser', '○ Run the suite'])
      expect(await good.locator('.todo-completed').evaluate((element) => getComputedStyle(element).textDecorationLine)).toBe('line-through')
      expect(await good.locator('.tool-result').count()).toBe(0)
      expect(await bad.evaluate((element) => (element instanceof HTMLDetailsElement ? element.open : undefined))).toBe(false)
      expect(await bad.getAttribute('class')).toContain('failed')
      expect(await bad.locator('.tool-result').textContent()).toContain('Only one item may be in_progress at a time')
      await shoot(page, 'todo-checklist')
      await page.context().close()
    },
    240_000,
  )

  it(
    'pins the open items above the Message box while the turn runs, and nothing after it',
    async () => {
      const many = [...todos, ...Array.from({ length: 5 }, (_, index) => ({ content: `Check case ${index + 1}`, status: 'pending' }))]
      tests.rig = await startRig((path) => [{ toolCalls: [{ id: 'c1', name: 'todo_write', arguments: { todos: many } }] }, { text: 'Working on the parser. Done.', holdAfter: 1, releaseFile: path('release') }])
      const page = await openPage(tests.browser, tests.rig.web)
      await ready(page)
      await page.getByRole('textbox', { name: 'Message' }).fill('fix the parser')
      await page.getByRole('textbox', { name: 'Message' }).press('Enter')
      const pinned = page.getByRole('complementary', { name: 'Checklist' })
      await pinned.waitFor({ timeout: UI_WAIT_MS })
      expect(await pinned.locator('.pinned-progress').textContent()).toBe('Checklist: 1 of 8 completed')
      expect(await pinned.locator('li').allTextContents()).toEqual(['▸ Fix the parser', '○ Run the suite', '○ Check case 1', '○ Check case 2', '○ Check case 3'])
      expect(await pinned.locator('.pinned-more').textContent()).toBe('… 2 more')
      await shoot(page, 'todo-pinned')
      writeFileSync(tests.rig.tree.path('release'), '')
      await page.getByText('Working on the parser. Done.').waitFor({ timeout: UI_WAIT_MS })
      await expect.poll(() => pinned.count(), { timeout: UI_WAIT_MS }).toBe(0)
      await page.context().close()
    },
    240_000,
  )

  it(
    'pins the list of a compacted session it opens, which shows no todo_write row',
    async () => {
      tests.rig = await startRig((path) => [{ text: 'Still on the parser. Done.', holdAfter: 1, releaseFile: path('release') }])
      const { tree } = tests.rig
      const chatScript = writeScript(tree.path('.'), 'chat.json', { responses: [{ toolCalls: [{ name: 'todo_write', arguments: { todos } }] }, { text: 'Planned.' }] })
      const chat = await runDshPiped(['--dsh-home', tree.path('home'), 'chat', '--cwd', tree.path('repo'), '--model', `scripted:${chatScript}`], 'plan the fix\n/compact\n/exit\n', { cwd: tree.root })
      expect(chat.code, chat.stderr).toBe(0)
      const page = await openPage(tests.browser, tests.rig.web)
      await ready(page)
      await page.getByRole('button', { name: /^plan the fix/ }).click()
      // The history is the compaction's note, which opens on the summary; no todo_write row is left.
      const note = page.locator('details.compacted')
      await note.waitFor({ timeout: UI_WAIT_MS })
      await ready(page)
      expect(await note.locator('summary').textContent()).toBe('Earlier history was compacted into a summary')
      await note.locator('summary').click()
      // /compact in dsh chat summarises without the model: the checkpoint text names the earlier prompt.
      expect(await note.locator('.compacted-summary').textContent()).toContain('The earlier part of this session was compacted. Summary of what happened before:\n\nUser: plan the fix\n')
      expect(await page.locator('details.tool').count()).toBe(0)
      await page.getByRole('textbox', { name: 'Message' }).fill('go on')
      await page.getByRole('textbox', { name: 'Message' }).press('Enter')
      const pinned = page.getByRole('complementary', { name: 'Checklist' })
      await pinned.waitFor({ timeout: UI_WAIT_MS })
      expect(await pinned.locator('.pinned-progress').textContent()).toBe('Checklist: 1 of 3 completed')
      expect(await pinned.locator('li').allTextContents()).toEqual(['▸ Fix the parser', '○ Run the suite'])
      await shoot(page, 'todo-pinned-compacted')
      writeFileSync(tree.path('release'), '')
      await page.getByText('Still on the parser. Done.').waitFor({ timeout: UI_WAIT_MS })
      await expect.poll(() => pinned.count(), { timeout: UI_WAIT_MS }).toBe(0)
      await page.context().close()
    },
    240_000,
  )
})
