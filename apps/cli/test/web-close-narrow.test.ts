// Issue 21 item 12's last two: closing a session from the page (gone after a reload and in a second
// tab, the log still listed by dsh sessions and the API; a running one asks first and is cancelled;
// one waiting on a permission question asks too, and closing rejects the question, the call never
// runs), and the 390 px layout (one scroll area while a long transcript, or tool rows with a 200-line
// result, a diff and a file preview, show; no horizontal page scroll; the sessions drawer). Headless
// Chromium against the built dsh web; screenshots to /tmp/web21-shots and /tmp/web21b-shots.
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { runDsh } from './run-dsh.ts'
import { openPage, openTab, ready, startRig, UI_WAIT_MS, usePageTests } from './web-page.ts'

const shotDir = process.env['WEB21_SHOTS'] ?? '/tmp/web21-shots'
const shot = async (page: Page, name: string): Promise<void> => {
  mkdirSync(shotDir, { recursive: true })
  await page.screenshot({ path: join(shotDir, `${name}.png`) })
}

const tests = usePageTests()

/** Scroll areas (overflow-y auto/scroll) whose content is taller than they are; the page itself counts as 'page'. */
const overflowingAreas = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const found: string[] = []
    const root = document.scrollingElement
    if (root !== null && root.scrollHeight > root.clientHeight) found.push('page')
    for (const element of document.querySelectorAll('*')) {
      if (element === root) continue
      const style = getComputedStyle(element)
      if ((style.overflowY === 'auto' || style.overflowY === 'scroll') && element.scrollHeight > element.clientHeight + 1) found.push(element.className || element.tagName)
    }
    return found
  })

/** Elements (outside a `pre`, which scrolls sideways on its own) reaching past a 390 px window's right edge. */
const widerThanPhone = (page: Page): Promise<string[]> =>
  page.evaluate(() => [...document.querySelectorAll('body *')].filter((element) => element.getBoundingClientRect().right > 391 && element.getClientRects().length > 0 && element.closest('pre') === null).map((element) => `${element.tagName}.${element.className}:${Math.round(element.getBoundingClientRect().right)}`).slice(0, 8))

async function prompt(page: Page, text: string): Promise<void> {
  const message = page.getByRole('textbox', { name: 'Message' })
  await message.fill(text)
  await message.press('Enter')
}

describe('dsh web page: closing a session', () => {
  it(
    'closes an idle session: gone after a reload and in another tab, its log still listed; a running one asks and is cancelled; Reopen brings one back',
    async () => {
      tests.rig = await startRig((path) => [{ text: 'First answer.' }, { text: 'never finished', holdAfter: 0, releaseFile: path('never') }])
      const { web } = tests.rig
      const page = await openPage(tests.browser, web)
      await ready(page)
      await prompt(page, 'first question')
      await page.getByText('First answer.').waitFor()
      const first = await web.api<{ sessions: { id: string; title: string }[] }>('GET', '/api/sessions')
      const idle = first.body.sessions.find((row) => row.title === 'first question')?.id ?? ''
      expect(idle).not.toBe('')
      // A second session, running a turn that never ends by itself.
      await page.getByRole('button', { name: 'New session' }).click()
      // The new session is the current one before anything is typed (typed earlier, it went to the first).
      await page.locator('.session.current', { hasText: '(no prompt yet)' }).waitFor({ timeout: UI_WAIT_MS })
      await ready(page)
      await prompt(page, 'second question')
      await expect.poll(() => page.getByRole('button', { name: 'Cancel', exact: true }).isEnabled(), { timeout: UI_WAIT_MS }).toBe(true)
      const other = await openTab(page.context(), page.url())
      await ready(other)
      await other.getByRole('button', { name: 'Close session “first question”' }).waitFor()
      await shot(page, 'session-list-close-action')
      // The idle one closes at once.
      await page.getByRole('button', { name: 'Close session “first question”' }).click()
      await expect.poll(() => other.getByRole('button', { name: 'Close session “first question”' }).count(), { timeout: UI_WAIT_MS }).toBe(0)
      await page.reload()
      await ready(page)
      await page.getByRole('button', { name: 'Close session “second question”' }).waitFor()
      expect(await page.getByRole('button', { name: 'Close session “first question”' }).count()).toBe(0)
      const listed = await runDsh(['sessions', 'list'], { cwd: tests.rig.tree.path('repo'), env: { DSH_HOME: tests.rig.tree.path('home') } })
      expect(listed.stdout).toContain(idle)
      const after = await web.api<{ sessions: { id: string }[]; closed: { id: string }[] }>('GET', '/api/sessions')
      expect(after.body.closed.map((row) => row.id)).toEqual([idle])
      expect(after.body.sessions.map((row) => row.id)).not.toContain(idle)
      // The running one asks first; "Keep it open" keeps it, "Close session" cancels its turn.
      await page.getByRole('button', { name: 'Close session “second question”' }).click()
      const question = page.getByRole('alertdialog', { name: 'Close this session?' })
      await question.getByText('A turn is running in “second question”. Closing the session cancels it.').waitFor()
      await shot(page, 'close-confirmation')
      await question.getByRole('button', { name: 'Keep it open' }).click()
      await expect.poll(() => question.count()).toBe(0)
      expect(await page.getByRole('button', { name: 'Close session “second question”' }).count()).toBe(1)
      await page.getByRole('button', { name: 'Close session “second question”' }).click()
      await question.getByRole('button', { name: 'Close session' }).click()
      await page.getByText('This session was closed (here or in another tab). Its log is kept.').waitFor()
      await other.getByText('This session was closed (here or in another tab). Its log is kept.').waitFor()
      const closedNow = await web.api<{ sessions: { id: string }[]; closed: { id: string; title: string }[] }>('GET', '/api/sessions')
      const running = closedNow.body.closed.find((row) => row.title === 'second question')?.id ?? ''
      const shown = await runDsh(['sessions', 'show', running, '--messages'], { cwd: tests.rig.tree.path('repo'), env: { DSH_HOME: tests.rig.tree.path('home') } })
      expect(shown.stdout).toContain('second question')
      // Reopen from the closed list: open again, in the list again.
      await page.getByRole('button', { name: /^▸ Closed sessions/ }).click()
      await page.getByRole('button', { name: 'Reopen “first question”' }).click()
      await page.getByText('First answer.').waitFor()
      const reopened = await web.api<{ sessions: { id: string }[]; closed: { id: string }[] }>('GET', '/api/sessions')
      expect(reopened.body.sessions.map((row) => row.id)).toContain(idle)
      // The API: unknown id 404, no-store, a running session without stopTurn 409 was shown above through the page.
      const unknown = await fetch(`${web.origin}/api/sessions/no-such-session/close`, { method: 'POST', headers: { authorization: `Bearer ${web.token}`, 'content-type': 'application/json' }, body: '{}' })
      expect(unknown.status).toBe(404)
      expect(unknown.headers.get('cache-control')).toBe('no-store')
      const anonymous = await fetch(`${web.origin}/api/sessions/${idle}/close`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      expect(anonymous.status).toBe(401)
      await page.context().close()
    },
    240_000,
  )

  it(
    'closing a session waiting on a permission question asks with the question wording; Keep it open keeps the card; Close rejects the question, the call never runs',
    async () => {
      tests.rig = await startRig((path) => [{ toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: `touch '${path('repo/closed-marker')}'` } }] }, { text: 'The marker was made.' }])
      const marker = tests.rig.tree.path('repo/closed-marker')
      const page = await openPage(tests.browser, tests.rig.web)
      await ready(page)
      await prompt(page, 'make a marker')
      const card = page.locator('section.approval')
      await card.getByRole('button', { name: 'Allow once' }).waitFor()
      const listed = await tests.rig.web.api<{ sessions: { id: string; title: string }[] }>('GET', '/api/sessions')
      const id = listed.body.sessions.find((row) => row.title === 'make a marker')?.id ?? ''
      expect(id).not.toBe('')
      const closeRow = page.getByRole('button', { name: 'Close session “make a marker”' })
      await closeRow.click()
      const question = page.getByRole('alertdialog', { name: 'Close this session?' })
      await question.getByText('“make a marker” is waiting for your answer to a question. Closing the session rejects the question and stops the turn.').waitFor()
      await shot(page, 'close-confirmation-waiting')
      await question.getByRole('button', { name: 'Keep it open' }).click()
      await expect.poll(() => question.count()).toBe(0)
      expect(await card.getByRole('button', { name: 'Allow once' }).isVisible()).toBe(true)
      expect(await closeRow.count()).toBe(1)
      expect(existsSync(marker)).toBe(false)
      // Confirmed: the session closes, its question is rejected and the turn stops.
      await closeRow.click()
      await question.getByRole('button', { name: 'Close session' }).click()
      await page.getByText('This session was closed (here or in another tab). Its log is kept.').waitFor()
      const after = await tests.rig.web.api<{ sessions: { id: string }[]; closed: { id: string }[] }>('GET', '/api/sessions')
      expect(after.body.closed.map((row) => row.id)).toEqual([id])
      expect(after.body.sessions.map((row) => row.id)).not.toContain(id)
      const shown = await runDsh(['sessions', 'show', id, '--messages'], { cwd: tests.rig.tree.path('repo'), env: { DSH_HOME: tests.rig.tree.path('home') } })
      expect(shown.stdout).toContain('make a marker')
      expect(shown.stdout).toContain('--- tool bash (error)\nThe bash call was not approved (permission mode ask asks before running bash).')
      expect(shown.stdout).not.toContain('The marker was made.')
      expect(existsSync(marker)).toBe(false)
      await page.reload()
      await page.getByText('No session is open. Open one from the sessions list or start a new one.').waitFor()
      await page.getByRole('button', { name: '▸ Closed sessions (1)' }).waitFor()
      expect(await closeRow.count()).toBe(0)
      expect(existsSync(marker)).toBe(false)
      await page.context().close()
    },
    240_000,
  )
})

describe('dsh web page at 390 px', () => {
  it(
    'scrolls the transcript only, never sideways; the sessions list is a drawer',
    async () => {
      const longLine = `const wide = '${'a'.repeat(300)}'`
      const paragraphs = Array.from({ length: 40 }, (_, index) => `Paragraph ${index + 1} of a long answer, long enough to wrap on a phone screen twice or more.`).join('\n\n')
      tests.rig = await startRig([{ text: `${paragraphs}\n\n\`\`\`js\n${longLine}\n\`\`\`\n\nEnd.` }])
      const page = await openPage(tests.browser, tests.rig.web, { width: 390, height: 844 })
      await ready(page)
      await prompt(page, 'a long question')
      await page.getByText('End.').waitFor()
      const overflowing = await overflowingAreas(page)
      await shot(page, 'narrow-transcript')
      const wide = await widerThanPhone(page)
      expect(wide).toEqual([])
      expect(overflowing).toEqual(['transcript'])
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
      expect(await page.locator('.transcript').evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0)
      expect(await page.locator('pre.code').evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true)
      expect(await page.getByRole('textbox', { name: 'Message' }).isVisible()).toBe(true)
      await page.getByRole('button', { name: 'Sessions', exact: true }).click()
      await page.getByRole('button', { name: 'Back to chat' }).waitFor()
      await shot(page, 'narrow-drawer')
      await page.getByRole('button', { name: 'Back to chat' }).click()
      await expect.poll(() => page.locator('#sessions-drawer').isVisible()).toBe(false)
      await page.context().close()
    },
    240_000,
  )

  it(
    'tool rows with long output, an edit diff and a written file: still one scroll area, never sideways, with the output opened',
    async () => {
      const wideLine = `export const wide = '${'w'.repeat(240)}'`
      const listing = 'for i in $(seq 1 200); do echo "output line $i of a long listing"; done'
      const notes = Array.from({ length: 30 }, (_, index) => `- note ${index + 1}: ${'word '.repeat((index % 5) + 3)}`).join('\n')
      tests.rig = await startRig(
        [
          { toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: listing } }] },
          { toolCalls: [{ id: 'c2', name: 'edit', arguments: { file_path: 'src/app.ts', old_string: "export const name = 'old'", new_string: `export const name = 'new'\n${wideLine}` } }] },
          { toolCalls: [{ id: 'c3', name: 'write', arguments: { file_path: 'NOTES.md', content: `${notes}\n` } }] },
          { text: 'All three tools ran.' },
        ],
        { files: { 'repo/src/app.ts': "// app\nexport const name = 'old'\nexport const size = 1\n" }, args: ['--permission-mode', 'full-auto'] },
      )
      const page = await openPage(tests.browser, tests.rig.web, { width: 390, height: 844 })
      await ready(page)
      await prompt(page, 'list, edit and write')
      await page.getByText('All three tools ran.').waitFor()
      const tools = page.locator('details.tool')
      expect(await tools.count()).toBe(3)
      expect(await page.locator('pre.diff').textContent()).toContain(`+${wideLine}`)
      expect(await page.locator('pre.file-preview').textContent()).toContain('- note 30:')
      expect(await overflowingAreas(page)).toEqual(['transcript'])
      expect(await widerThanPhone(page)).toEqual([])
      // The bash row starts closed: open it and measure again with its 200 lines shown.
      const listingRow = tools.first()
      expect(await listingRow.evaluate((element) => element.hasAttribute('open'))).toBe(false)
      await listingRow.locator('summary').click()
      const result = listingRow.locator('pre.tool-result')
      await result.getByText('output line 200 of a long listing').waitFor()
      expect(await result.evaluate((element) => element.getBoundingClientRect().height)).toBeGreaterThan(844)
      // The picture: the listing's last lines, the edit's diff (its wide line scrolls inside it) and the written file.
      await page.locator('pre.diff').scrollIntoViewIfNeeded()
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
      mkdirSync('/tmp/web21b-shots', { recursive: true })
      await page.screenshot({ path: '/tmp/web21b-shots/narrow-tools.png' })
      expect(await overflowingAreas(page)).toEqual(['transcript'])
      expect(await widerThanPhone(page)).toEqual([])
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
      expect(await page.locator('.transcript').evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0)
      expect(await page.locator('pre.diff').evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true)
      expect(await page.getByRole('textbox', { name: 'Message' }).isVisible()).toBe(true)
      await page.context().close()
    },
    240_000,
  )
})
