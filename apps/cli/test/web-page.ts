// Shared by the page tests: headless Debian Chromium (playwright-core), `dsh web` on a temp tree
// with a scripted model, pages opened through the printed URL, screenshots outside the repository
// ($DSH_WEB_SCREENSHOTS, else <tmpdir>/dsh-web-screenshots).
import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import type { ModelScript } from '@dsh/llm-scripted'
import { writeScript } from './run-dsh.ts'
import { startWeb, type WebProcess } from './web-harness.ts'

/** How long one awaited change on the page may take: a hang guard, generous for a loaded machine. */
export const UI_WAIT_MS = 60_000
export const shots = process.env['DSH_WEB_SCREENSHOTS'] ?? join(tmpdir(), 'dsh-web-screenshots')

/** Debian's chromium (`.ci/run` installs it when missing), without background traffic. */
export async function launchBrowser(): Promise<Browser> {
  mkdirSync(shots, { recursive: true })
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] })
}

/** A test's tree and server. */
export interface PageRig {
  readonly tree: TempTree
  readonly web: WebProcess
  dispose(): Promise<void>
}

/** `dsh web` in a fresh tree (`repo/` is the cwd, plus `files`) answering with `responses` (responses and args may be given the tree's absolute paths). */
export async function startRig(
  responses: ModelScript['responses'] | ((path: (relative: string) => string) => ModelScript['responses']),
  options: { readonly files?: Record<string, string | null>; readonly args?: readonly string[] | ((path: (relative: string) => string) => readonly string[]) } = {},
): Promise<PageRig> {
  const tree = await tempTree({ 'repo/.git/': null, 'repo/AGENTS.md': 'Use tabs.\n', 'home/': null, ...options.files })
  const script = writeScript(tree.path('.'), 'script.json', { responses: typeof responses === 'function' ? responses((relative) => tree.path(relative)) : responses })
  const args = typeof options.args === 'function' ? options.args((relative) => tree.path(relative)) : (options.args ?? [])
  const web = await startWeb(['--model', `scripted:${script}`, ...args], { cwd: tree.path('repo'), home: tree.path('home') })
  return {
    tree,
    web,
    async dispose() {
      await web.stop()
      await tree.dispose()
    },
  }
}

/** A new browser context (one "browser profile") with the page opened by the printed URL. */
export async function openPage(browser: Browser, web: WebProcess, options: { readonly width?: number; readonly height?: number; readonly init?: () => void } = {}): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: options.width ?? 1280, height: options.height ?? 800 } })
  context.setDefaultTimeout(UI_WAIT_MS)
  if (options.init !== undefined) await context.addInitScript(options.init)
  const page = await context.newPage()
  await page.goto(web.url)
  return page
}

/** Another tab in the same context, on the page's (private) address. */
export async function openTab(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage()
  await page.goto(url)
  return page
}

/** Resolves once the composer takes text (the history is read and the stream is on). */
export async function ready(page: Page): Promise<void> {
  await page.locator('#message:not([readonly])').waitFor({ timeout: UI_WAIT_MS })
}

export const shoot = (page: Page, name: string): Promise<Buffer> => page.screenshot({ path: join(shots, `${name}.png`) })

/** What a page test file shares: one browser for the file, and the rig of the test that runs (disposed after it). */
export interface PageTests {
  browser: Browser
  rig: PageRig | undefined
}

/** Registers the hooks of a page test file (launch the browser once, dispose each test's rig, close the browser) and returns what they fill. */
export function usePageTests(): PageTests {
  // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- `browser` is set by beforeAll before any test reads it
  const state = { rig: undefined } as PageTests
  beforeAll(async () => (state.browser = await launchBrowser()), 60_000)
  afterAll(async () => state.browser?.close())
  afterEach(async () => {
    await state.rig?.dispose()
    state.rig = undefined
  })
  return state
}
