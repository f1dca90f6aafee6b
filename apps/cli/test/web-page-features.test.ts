// The page's reading aids (issue 21, items 5–8 and 10) in headless Chromium against the built
// `dsh web` with a scripted model: scrolling follows the bottom only while the reader is there
// (else "Jump to latest"); a question waiting in another session marks its row, the tab title and
// icon, and its tool row says "waiting for you"; edits show as diffs and writes as previews under
// their paths; GFM tables, nested lists, strike, autolinks; copy buttons with language labels;
// eight tabs of one browser share one event stream; reasoning streams collapsed as "Thinking…".
import { writeFileSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openPage, openTab, ready, shoot, startRig, UI_WAIT_MS, usePageTests } from './web-page.ts'

const tests = usePageTests()

const timeout = 240_000
const lines = (count: number, word: string): string => Array.from({ length: count }, (_, index) => `${word} line ${index + 1} of the long answer, long enough to wrap a little on a narrow page.`).join('\n\n')
const send = async (page: Page, text: string): Promise<void> => {
  await page.getByRole('textbox', { name: 'Message' }).fill(text)
  await page.getByRole('textbox', { name: 'Message' }).press('Enter')
}
declare global {
  interface Window {
    /** How many EventSources this tab opened (set by the eight-tabs test). */
    streamsOpened: () => number
  }
}

/** How many event streams a tab opened (0 once it is closed). */
const countOf = async (tab: Page): Promise<number> => (tab.isClosed() ? 0 : await tab.evaluate(() => window.streamsOpened()))
const distanceFromBottom = (page: Page): Promise<number> => page.locator('.transcript').evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight)

describe('dsh web page: reading aids', () => {
  it(
    'follows the bottom while the reader is there; a reader who scrolled up stays put and gets "Jump to latest"',
    async () => {
      tests.rig = await startRig((path) => [{ text: `${lines(60, 'first')}\n\n${lines(60, 'second')}\n\nTHE END`, holdAfter: 300, releaseFile: path('release') }])
      const page = await openPage(tests.browser, tests.rig.web, { height: 700 })
      await ready(page)
      await send(page, 'write a lot')
      await page.getByText('first line 40 of the long answer', { exact: false }).waitFor({ timeout: UI_WAIT_MS })
      await expect.poll(() => distanceFromBottom(page), { timeout: UI_WAIT_MS }).toBeLessThan(50)
      expect(await page.getByRole('button', { name: 'Jump to latest ↓' }).count()).toBe(0)
      await page.locator('.transcript').hover()
      await page.mouse.wheel(0, -1500)
      await page.getByRole('button', { name: 'Jump to latest ↓' }).waitFor({ timeout: UI_WAIT_MS })
      const kept = await page.locator('.transcript').evaluate((element) => element.scrollTop)
      writeFileSync(tests.rig.tree.path('release'), '')
      await page.getByText('THE END').waitFor({ state: 'attached', timeout: UI_WAIT_MS })
      expect(await page.locator('.transcript').evaluate((element) => element.scrollTop)).toBe(kept)
      expect(await distanceFromBottom(page)).toBeGreaterThan(1000)
      await shoot(page, 'scroll-jump-to-latest')
      await page.getByRole('button', { name: 'Jump to latest ↓' }).click()
      await expect.poll(() => distanceFromBottom(page), { timeout: UI_WAIT_MS }).toBeLessThan(50)
      await expect.poll(() => page.getByRole('button', { name: 'Jump to latest ↓' }).count()).toBe(0)
      await page.context().close()
    },
    timeout,
  )

  it(
    'a question waiting in another session marks its row, the title and the icon; its tool row says "waiting for you"',
    async () => {
      tests.rig = await startRig([{ toolCalls: [{ id: 'c1', name: 'bash', arguments: { command: 'echo waited' } }] }, { text: 'It printed waited.' }])
      const { web } = tests.rig
      const page = await openPage(tests.browser, web)
      await ready(page)
      expect(await page.title()).toBe('dsh web')
      const other = await web.api<{ id: string }>('POST', '/api/sessions', {})
      const id = other.body.id
      expect((await web.api('POST', `/api/sessions/${id}/prompt`, { text: 'run the other one' })).status).toBe(202)
      const row = page.locator('.session.waiting')
      await row.waitFor({ timeout: UI_WAIT_MS })
      expect(await row.locator('.needs-answer').textContent()).toBe('needs your answer')
      expect(await row.locator('.session-title').textContent()).toBe('run the other one')
      await expect.poll(() => page.title(), { timeout: UI_WAIT_MS }).toBe('(1) needs your answer — dsh web')
      expect(await page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^data:image\/svg\+xml,/)
      await shoot(page, 'attention-other-session')
      await row.click()
      await expect.poll(() => page.locator('.tool .tool-state').textContent(), { timeout: UI_WAIT_MS }).toBe('waiting for you')
      await page.getByRole('alertdialog').waitFor()
      await shoot(page, 'attention-waiting-row')
      await page.getByRole('button', { name: 'Allow once', exact: true }).click()
      await expect.poll(() => page.locator('.turn.assistant .markdown').last().textContent(), { timeout: UI_WAIT_MS }).toBe('It printed waited.')
      expect(await page.locator('.tool .tool-state').textContent()).toBe('exit 0 · 1 line')
      await expect.poll(() => page.title(), { timeout: UI_WAIT_MS }).toBe('dsh web')
      await expect.poll(() => page.locator('.session.waiting').count(), { timeout: UI_WAIT_MS }).toBe(0)
      expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('/assets/favicon.svg')
      await page.context().close()
    },
    timeout,
  )

  it(
    'shows an edit as a diff and a write as a preview under their paths; tables, nested lists, strike, autolinks; copies code',
    async () => {
      const answer = [
        'Done. Summary:',
        '',
        '| file | change |',
        '|---|:---:|',
        '| `src/util.ts` | ~~tabs~~ spaces |',
        '| notes.md | new |',
        '',
        '- util',
        '  - indentation',
        '    - two spaces',
        '- notes',
        '',
        'Docs: https://example.com/style and <https://example.com/notes>.',
        '',
        '```ts',
        'const width = 2 // spaces',
        '```',
      ].join('\n')
      tests.rig = await startRig(
        [
          {
            toolCalls: [
              { id: 'e1', name: 'edit', arguments: { file_path: 'src/util.ts', old_string: 'export const indent = "\\t"\n', new_string: 'export const indent = "  "\nexport const width = 2\n' } },
              { id: 'w1', name: 'write', arguments: { file_path: 'notes.md', content: '# Notes\n\nIndentation is two spaces.\n' } },
            ],
          },
          { text: answer },
        ],
        { files: { 'repo/src/util.ts': 'export const name = "util"\nexport const indent = "\\t"\n' } },
      )
      const page = await openPage(tests.browser, tests.rig.web)
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
      await ready(page)
      await send(page, 'switch to spaces and write notes')
      await page.locator('.turn.assistant table').waitFor({ timeout: UI_WAIT_MS })
      const edit = page.locator('details.tool').nth(0)
      expect(await edit.locator('.file-path code').textContent()).toBe('src/util.ts')
      expect(await edit.locator('.diff-del').allTextContents()).toEqual(['-export const indent = "\\t"\n'])
      expect(await edit.locator('.diff-add').allTextContents()).toEqual(['+export const indent = "  "\n', '+export const width = 2\n'])
      expect(await edit.locator('.tool-args').count()).toBe(0)
      const write = page.locator('details.tool').nth(1)
      expect(await write.locator('.file-path code').textContent()).toBe('notes.md')
      expect(await write.locator('.file-path .badge').textContent()).toBe('new content, 3 lines')
      expect(await write.locator('pre.file-preview').textContent()).toBe('# Notes\n\nIndentation is two spaces.\n')
      const markdown = page.locator('.turn.assistant .markdown').last()
      expect(await markdown.locator('th').allTextContents()).toEqual(['file', 'change'])
      expect(await markdown.locator('td del').textContent()).toBe('tabs')
      expect(await markdown.locator('td').nth(1).evaluate((cell) => getComputedStyle(cell).textAlign)).toBe('center')
      expect(await markdown.locator('ul > li > ul > li > ul > li').textContent()).toBe('two spaces')
      expect(await markdown.locator('a').evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual(['https://example.com/style', 'https://example.com/notes'])
      expect(await markdown.locator('.code-language').getAttribute('data-label')).toBe('ts')
      await markdown.getByRole('button', { name: 'Copy ts code' }).click()
      await expect.poll(() => markdown.getByRole('button', { name: 'Copy ts code' }).getAttribute('data-label')).toBe('Copied')
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('const width = 2 // spaces')
      await page.getByRole('button', { name: 'Copy message' }).last().click()
      await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(answer)
      await shoot(page, 'diff-and-markdown')
      await page.locator('.turn.assistant').last().scrollIntoViewIfNeeded()
      await shoot(page, 'markdown-gfm')
      await page.context().close()
    },
    timeout,
  )

  it(
    'eight tabs of one browser all work over one event stream, and another tab takes it over when its holder closes',
    async () => {
      tests.rig = await startRig([{ text: 'Answer for every tab.' }, { text: 'Second answer, after the first tab closed.' }])
      const first = await openPage(tests.browser, tests.rig.web, {
        init: () => {
          const Original = window.EventSource
          let opened = 0
          window.streamsOpened = () => opened
          window.EventSource = class extends Original {
            constructor(url: string | URL, init?: EventSourceInit) {
              super(url, init)
              opened += 1
            }
          }
        },
      })
      await ready(first)
      const context = first.context()
      const tabs = [first]
      for (let index = 1; index < 8; index++) tabs.push(await openTab(context, first.url()))
      for (const each of tabs) await ready(each)
      const opened = async (): Promise<number> => (await Promise.all(tabs.map(countOf))).reduce((sum, count) => sum + count, 0)
      const tab = (index: number): Page => {
        const page = tabs[index]
        if (page === undefined) throw new Error(`no tab ${index}`)
        return page
      }
      expect(await opened()).toBe(1)
      await send(tab(7), 'hello from tab 8')
      for (const each of tabs) await expect.poll(() => each.locator('.turn.assistant .markdown').last().textContent(), { timeout: UI_WAIT_MS }).toBe('Answer for every tab.')
      await shoot(tab(5), 'tabs-sixth')
      await first.close()
      const rest = tabs.slice(1)
      await expect.poll(opened, { timeout: UI_WAIT_MS }).toBe(1)
      await send(tab(1), 'again')
      for (const each of rest) await expect.poll(() => each.locator('.turn.assistant .markdown').last().textContent(), { timeout: UI_WAIT_MS }).toBe('Second answer, after the first tab closed.')
      await context.close()
    },
    timeout,
  )

  it(
    'shows reasoning collapsed with "Thinking…" while it streams, then its length; the usage line',
    async () => {
      tests.rig = await startRig((path) => [{ reasoning: 'The user wants a greeting; keep it short and friendly.', text: 'Hello!', holdAfter: 0, releaseFile: path('release'), usage: { inputTokens: 1000, outputTokens: 200, cacheHitTokens: 750 } }])
      const page = await openPage(tests.browser, tests.rig.web)
      await ready(page)
      await send(page, 'greet me')
      const reasoning = page.locator('details.reasoning')
      await expect.poll(() => reasoning.locator('summary').textContent(), { timeout: UI_WAIT_MS }).toBe('Thinking…')
      await expect.poll(() => reasoning.locator('.reasoning-text').textContent(), { timeout: UI_WAIT_MS }).toBe('The user wants a greeting; keep it short and friendly.')
      expect(await reasoning.getAttribute('open')).toBeNull()
      await shoot(page, 'reasoning-thinking')
      writeFileSync(tests.rig.tree.path('release'), '')
      await expect.poll(() => page.locator('.turn.assistant .markdown').textContent(), { timeout: UI_WAIT_MS }).toBe('Hello!')
      expect(await reasoning.locator('summary').textContent()).toBe('Reasoning (54 characters)')
      // The usage line under the chat, as in the chat's status line.
      await expect.poll(() => page.getByLabel('Usage').textContent(), { timeout: UI_WAIT_MS }).toBe('context 1.2k of 128k tokens (1%) · cache hits 75%')
      await shoot(page, 'reasoning-and-usage')
      await page.getByRole('combobox', { name: 'Language' }).selectOption('zh')
      await expect.poll(() => page.getByLabel('用量').textContent()).toBe('上下文 1.2k / 128k 个 token（1%） · 缓存命中 75%')
      expect(await reasoning.locator('summary').textContent()).toBe('推理过程（54 个字符）')
      expect(await page.getByRole('button', { name: '复制消息' }).getAttribute('data-label')).toBe('复制')
      await shoot(page, 'reasoning-and-usage-chinese')
      await page.context().close()
    },
    timeout,
  )
})
