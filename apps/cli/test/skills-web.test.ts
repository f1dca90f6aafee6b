// `/name` in `dsh web` through the built binary, in headless Chromium: typing a slash and part of a
// name lists the matching commands under the Message textbox, Tab completes the first, and the
// sent prompt reaches the model as the command's expanded body; a skill of an `--add-dir` root is
// offered and expanded too.
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { readRequests } from './run-dsh.ts'
import { openPage, startRig, UI_WAIT_MS, usePageTests } from './web-page.ts'

const tests = usePageTests()

const userContents = (file: string): string[] => (existsSync(file) ? readRequests(file, { complete: true }).flatMap((body) => body.messages.filter((m) => m.role === 'user').map((m) => m.content ?? '')) : [])

/** `dsh web` with `files` and the request log, its page open with the Message textbox editable. */
async function openWithLog(responses: { text: string }[], files: Record<string, string>, extraArgs: (path: (relative: string) => string) => string[] = () => []) {
  tests.rig = await startRig(responses, { files, args: (path) => ['--request-log', path('requests.jsonl'), ...extraArgs(path)] })
  const page = await openPage(tests.browser, tests.rig.web)
  const message = page.getByRole('textbox', { name: 'Message' })
  await expect.poll(() => message.isEditable(), { timeout: UI_WAIT_MS }).toBe(true)
  return { page, message, log: tests.rig.tree.path('requests.jsonl') }
}

describe('dsh web with custom commands', () => {
  it('completes /re to /release with Tab and sends the expanded body', async () => {
    const { page, message, log } = await openWithLog([{ text: 'released' }], { 'repo/.dsh/commands/release.md': '---\ndescription: Cut a release\nargument-hint: VERSION\n---\nRelease version $1 now.\n' })
    await message.fill('/re')
    const list = page.getByRole('listbox', { name: 'Commands' })
    await expect.poll(() => list.getByRole('option').allTextContents(), { timeout: UI_WAIT_MS }).toEqual(['/release VERSION — Cut a release'])
    await message.press('Tab')
    await expect.poll(() => message.inputValue()).toBe('/release ')
    await message.pressSequentially('4.2')
    await message.press('Enter')
    await expect.poll(() => userContents(log), { timeout: UI_WAIT_MS }).toContain('Release version 4.2 now.\n')
    await page.context().close()
  })
  it('offers and expands a skill of an --add-dir root', async () => {
    const { page, message, log } = await openWithLog([{ text: 'deployed' }], { 'lib/.dsh/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploy from the lib root.\n---\nDeploy $1 from lib.\n' }, (path) => ['--add-dir', path('lib')])
    await message.fill('/dep')
    const list = page.getByRole('listbox', { name: 'Commands' })
    await expect.poll(() => list.getByRole('option').allTextContents(), { timeout: UI_WAIT_MS }).toEqual(['/deploy — Deploy from the lib root.'])
    await message.fill('/deploy qa')
    await message.press('Enter')
    await expect.poll(() => userContents(log), { timeout: UI_WAIT_MS }).toContain('Deploy qa from lib.\n')
    await page.context().close()
  })
})
