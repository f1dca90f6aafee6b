// `/name` in `dsh web` through the built binary, in headless Chromium: typing a slash and part of a
// name lists the matching commands under the Message textbox, Tab completes the first, and the
// sent prompt reaches the model as the command's expanded body; a skill of an `--add-dir` root is
// offered and expanded too.
import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { readRequests, writeScript } from './run-dsh.ts'
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
  await tree?.dispose()
})

const userContents = (file: string): string[] => (existsSync(file) ? readRequests(file, { complete: true }).flatMap((body) => body.messages.filter((m) => m.role === 'user').map((m) => m.content ?? '')) : [])

describe('dsh web with custom commands', () => {
  it('completes /re to /release with Tab and sends the expanded body', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'repo/.dsh/commands/release.md': '---\ndescription: Cut a release\nargument-hint: VERSION\n---\nRelease version $1 now.\n', 'home/': null })
    const script = writeScript(tree.root, 'script.json', { responses: [{ text: 'released' }] })
    const log = tree.path('requests.jsonl')
    web = await startWeb(['--model', `scripted:${script}`, '--request-log', log], { cwd: tree.path('repo'), home: tree.path('home') })
    const context = await browser.newContext({ locale: 'en-US' })
    context.setDefaultTimeout(UI_WAIT_MS)
    const page = await context.newPage()
    await page.goto(web.url)
    const message = page.getByRole('textbox', { name: 'Message' })
    await expect.poll(() => message.isEditable(), { timeout: UI_WAIT_MS }).toBe(true)
    await message.fill('/re')
    const list = page.getByRole('listbox', { name: 'Commands' })
    await expect.poll(() => list.getByRole('option').allTextContents(), { timeout: UI_WAIT_MS }).toEqual(['/release VERSION — Cut a release'])
    await message.press('Tab')
    await expect.poll(() => message.inputValue()).toBe('/release ')
    await message.pressSequentially('4.2')
    await message.press('Enter')
    await expect.poll(() => userContents(log), { timeout: UI_WAIT_MS }).toContain('Release version 4.2 now.\n')
    await context.close()
  })
  it('offers and expands a skill of an --add-dir root', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'lib/.dsh/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploy from the lib root.\n---\nDeploy $1 from lib.\n', 'home/': null })
    const script = writeScript(tree.root, 'script.json', { responses: [{ text: 'deployed' }] })
    const log = tree.path('requests.jsonl')
    web = await startWeb(['--model', `scripted:${script}`, '--request-log', log, '--add-dir', tree.path('lib')], { cwd: tree.path('repo'), home: tree.path('home') })
    const context = await browser.newContext({ locale: 'en-US' })
    context.setDefaultTimeout(UI_WAIT_MS)
    const page = await context.newPage()
    await page.goto(web.url)
    const message = page.getByRole('textbox', { name: 'Message' })
    await expect.poll(() => message.isEditable(), { timeout: UI_WAIT_MS }).toBe(true)
    await message.fill('/dep')
    const list = page.getByRole('listbox', { name: 'Commands' })
    await expect.poll(() => list.getByRole('option').allTextContents(), { timeout: UI_WAIT_MS }).toEqual(['/deploy — Deploy from the lib root.'])
    await message.fill('/deploy qa')
    await message.press('Enter')
    await expect.poll(() => userContents(log), { timeout: UI_WAIT_MS }).toContain('Deploy qa from lib.\n')
    await context.close()
  })
})
