// The web host's "Rewind to here" action in headless Chromium against the built binary with a
// scripted model: the dialog previews the files and the conversation that would change, the
// rewind puts the files back, and the message leaves the page's history (and "Undo the rewind"
// brings both back); "files only" keeps the
// conversation and "conversation only" keeps the files, each previewed as chosen. A rewind of the
// conversation puts the turn's prompt back in an empty "Message" box (a draft typed there stays).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { writeScript } from './run-dsh.ts'
import { shots } from './web-page.ts'
import { startWeb, type WebProcess } from './web-harness.ts'

const UI_WAIT_MS = 60_000
let browser: Browser
let tree: TempTree | undefined
let web: WebProcess | undefined

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] })
}, 60_000)
afterAll(async () => browser?.close())
afterEach(async () => {
  await web?.stop()
  web = undefined
  await tree?.dispose()
  tree = undefined
})

describe('dsh web: Rewind to here', () => {
  it(
    'previews the change, rewinds files and conversation',
    async () => {
      tree = await tempTree({ 'repo/.git/': null, 'repo/keep.txt': 'original\n', 'repo/cfg.yaml': 'permissions:\n  mode: full-auto\n', 'home/': null })
      const script = writeScript(tree.path('.'), 'script.json', {
        responses: [{ toolCalls: [{ name: 'write', arguments: { file_path: 'new.txt', content: 'made\n' } }] }, { toolCalls: [{ name: 'bash', arguments: { command: 'echo changed > keep.txt' } }] }, { text: 'Made them.' }],
      })
      web = await startWeb(['--model', `scripted:${script}`, '--config', 'cfg.yaml'], { cwd: tree.path('repo'), home: tree.path('home') })
      const context = await browser.newContext({ locale: 'en-US' })
      context.setDefaultTimeout(UI_WAIT_MS)
      const page = await context.newPage()
      await page.goto(web.url)
      const message = page.getByRole('textbox', { name: 'Message' })
      await message.fill('make the files')
      await message.press('Enter')
      await expect.poll(() => page.locator('.turn.assistant').last().textContent(), { timeout: UI_WAIT_MS }).toBe('Made them.')
      await page.getByRole('button', { name: 'Rewind to here' }).click()
      const dialog = page.getByRole('dialog', { name: 'Rewind to before turn 1' })
      await expect.poll(() => dialog.getByRole('list').textContent(), { timeout: UI_WAIT_MS }).toBe('restore keep.txtremove new.txt')
      await expect.poll(() => dialog.textContent()).toContain("The conversation from this message on (")
      expect(readFileSync(tree.path('repo/keep.txt'), 'utf8')).toBe('changed\n')
      await dialog.getByRole('button', { name: 'Rewind', exact: true }).click()
      await expect.poll(() => page.locator('.turn.user').count(), { timeout: UI_WAIT_MS }).toBe(0)
      expect(readFileSync(tree.path('repo/keep.txt'), 'utf8')).toBe('original\n')
      expect(existsSync(tree.path('repo/new.txt'))).toBe(false)
      await expect.poll(() => message.inputValue(), { timeout: UI_WAIT_MS }).toBe('make the files')
      // The rewind can be taken back from the page, as with dsh rewind --undo.
      await page.getByRole('button', { name: 'Undo the rewind' }).click()
      await expect.poll(() => page.locator('.turn.user').count(), { timeout: UI_WAIT_MS }).toBe(1)
      expect(readFileSync(tree.path('repo/keep.txt'), 'utf8')).toBe('changed\n')
      expect(readFileSync(tree.path('repo/new.txt'), 'utf8')).toBe('made\n')
      expect(await page.getByRole('button', { name: 'Undo the rewind' }).count()).toBe(0)
      await context.close()
    },
    240_000,
  )

  it(
    'files only keeps the conversation, conversation only keeps the files; the preview follows the choice',
    async () => {
      tree = await tempTree({ 'repo/.git/': null, 'repo/keep.txt': 'original\n', 'repo/cfg.yaml': 'permissions:\n  mode: full-auto\n', 'home/': null })
      const script = writeScript(tree.path('.'), 'script.json', {
        responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'echo changed > keep.txt' } }] }, { text: 'Changed it.' }],
      })
      web = await startWeb(['--model', `scripted:${script}`, '--config', 'cfg.yaml'], { cwd: tree.path('repo'), home: tree.path('home') })
      const context = await browser.newContext({ locale: 'en-US' })
      context.setDefaultTimeout(UI_WAIT_MS)
      const page = await context.newPage()
      await page.goto(web.url)
      const message = page.getByRole('textbox', { name: 'Message' })
      await message.fill('change the file')
      await message.press('Enter')
      await expect.poll(() => page.locator('.turn.assistant').last().textContent(), { timeout: UI_WAIT_MS }).toBe('Changed it.')
      await page.getByRole('button', { name: 'Rewind to here' }).click()
      const dialog = page.getByRole('dialog', { name: 'Rewind to before turn 1' })
      await expect.poll(() => dialog.textContent(), { timeout: UI_WAIT_MS }).toContain('The conversation from this message on (')
      await dialog.getByRole('radio', { name: 'files only' }).check()
      await expect.poll(() => dialog.getByRole('list').textContent(), { timeout: UI_WAIT_MS }).toBe('restore keep.txt')
      await expect.poll(() => dialog.textContent()).not.toContain('The conversation from this message on (')
      await page.screenshot({ path: join(shots, 'rewind-files-only.png') })
      await dialog.getByRole('button', { name: 'Rewind', exact: true }).click()
      await expect.poll(() => readFileSync(tree?.path('repo/keep.txt') ?? '', 'utf8'), { timeout: UI_WAIT_MS }).toBe('original\n')
      await expect.poll(() => dialog.isVisible(), { timeout: UI_WAIT_MS }).toBe(false)
      expect(await page.locator('.turn.user').count()).toBe(1)
      expect(await message.inputValue()).toBe('')
      // A draft typed before a rewind of the conversation is the person's: it stays.
      await message.fill('my own words')
      await page.getByRole('button', { name: 'Rewind to here' }).click()
      await dialog.getByRole('radio', { name: 'conversation only' }).check()
      await expect.poll(() => dialog.textContent(), { timeout: UI_WAIT_MS }).toContain('The conversation from this message on (')
      expect(await dialog.getByRole('listitem').count()).toBe(0)
      await dialog.getByRole('button', { name: 'Rewind', exact: true }).click()
      await expect.poll(() => page.locator('.turn.user').count(), { timeout: UI_WAIT_MS }).toBe(0)
      expect(readFileSync(tree.path('repo/keep.txt'), 'utf8')).toBe('original\n')
      expect(await message.inputValue()).toBe('my own words')
      await context.close()
    },
    240_000,
  )
})
