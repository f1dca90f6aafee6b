// The page never blocks (issue 21, item 4), measured in headless Chromium against the built
// `dsh web` with a scripted model: a 64 KB answer streamed in 16-character deltas, and a 200-turn
// session (load, typing, a 1.9 KB answer). Asserted: the work per delta — nothing outside the
// streamed answer changes in the DOM, the answer's finished blocks keep their elements, typing
// touches no transcript node, a long history is windowed. Printed, not asserted (wall time flakes
// on a loaded machine): time from the last delta to shown, the longest main-thread task
// (PerformanceObserver 'longtask'), typing cost per key, load time of the 200-turn session.
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { openPage, ready, shoot, startRig, UI_WAIT_MS, usePageTests } from './web-page.ts'
import { turnFinished, watchEvents } from './web-harness.ts'

/** Hang guard for a whole streamed answer: 4,111 timer-paced deltas take long on a loaded machine. */
const STREAM_WAIT_MS = 240_000

const tests = usePageTests()

/** What the page records (installed before the page's own script runs). */
interface Recorder {
  longtasks: { start: number; duration: number }[]
  firstText: number
  lastText: number
  texts: number
  marker: string
  shownAt: number
  outside: number
  watching: boolean
}

declare global {
  interface Window {
    /** Set by {@link instrument} in the page. */
    rec: Recorder
    keyCosts: number[]
    slowKeys: number[]
    firstBlock: Element
  }
}

/** Runs in the page: long tasks, arrival of text deltas, when `marker` is shown, changes of the transcript outside its last answer. */
function instrument(): void {
  const rec: Recorder = { longtasks: [], firstText: 0, lastText: 0, texts: 0, marker: '', shownAt: 0, outside: 0, watching: false }
  window.rec = rec
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) rec.longtasks.push({ start: entry.startTime, duration: entry.duration })
  }).observe({ type: 'longtask', buffered: true })
  const Original = window.EventSource
  window.EventSource = class extends Original {
    constructor(url: string | URL, init?: EventSourceInit) {
      super(url, init)
      this.addEventListener('message', (message: MessageEvent<string>) => {
        if (!message.data.includes('"type":"text"')) return
        rec.texts += 1
        rec.lastText = performance.now()
        if (rec.firstText === 0) rec.firstText = rec.lastText
      })
    }
  }
  // oxlint-disable-next-line unicorn/consistent-function-scoping -- this function is serialized into the page: everything it uses must be inside it
  const lastAnswer = (): Element | undefined => [...document.querySelectorAll('.turn.assistant')].at(-1)
  const frame = (): void => {
    if (rec.marker !== '' && rec.shownAt === 0 && lastAnswer()?.querySelector('.markdown')?.lastElementChild?.textContent?.includes(rec.marker) === true) rec.shownAt = performance.now()
    requestAnimationFrame(frame)
  }
  requestAnimationFrame(frame)
  new MutationObserver((records) => {
    if (!rec.watching) return
    const answer = lastAnswer()
    const transcript = document.querySelector('.transcript')
    for (const record of records) if (transcript?.contains(record.target) === true && (answer === undefined || !answer.contains(record.target))) rec.outside += 1
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['class', 'open', 'style'] })
}

const recorder = (page: Page): Promise<Recorder> => page.evaluate(() => window.rec)
const longestIn = (rec: Recorder, from: number, to: number): number => Math.max(0, ...rec.longtasks.filter((task) => task.start + task.duration >= from && task.start <= to).map((task) => task.duration))

/** About 1 KB of the markdown an agent writes: heading, inline marks, a nested list, a table, code. */
const section = (n: number): string =>
  [
    `## Step ${n}: the **parser** and \`tokenize()\``,
    `The tokenizer reads ~~every~~ each line once; see https://example.com/docs/${n} and [the notes](https://example.com/n${n}). It keeps _state_ small.`,
    '',
    '- first, split the input',
    '  - keep offsets',
    '  - drop blank lines',
    '- then build the tree',
    '',
    '| stage | cost | note |',
    '|---|---:|---|',
    `| split | ${n} ms | linear |`,
    '| parse | 2 ms | per block |',
    '',
    '```ts',
    `export function tokenize${n}(text: string): string[] {`,
    "  const out: string[] = [] // the tokens",
    "  for (const line of text.split('\\n')) if (line.trim() !== '') out.push(line)",
    '  return out',
    '}',
    '```',
    '',
    `Step ${n} is done; the next one reuses its output and adds nothing expensive to the page.`,
    '',
    '',
  ].join('\n')

const answerOf = (bytes: number, marker: string): string => {
  let text = ''
  for (let n = 1; text.length < bytes; n++) text += section(n)
  return `${text}${marker}\n`
}

describe('dsh web page performance', () => {
  it(
    'streams a 64 KB answer re-rendering only its open block (the longest task is printed)',
    async () => {
      const marker = 'END-OF-THE-64K-ANSWER'
      const answer = answerOf(64 * 1024, marker)
      tests.rig = await startRig([{ text: answer, delayMs: 1 }])
      const page = await openPage(tests.browser, tests.rig.web, { init: instrument })
      await ready(page)
      await page.evaluate((value) => {
        const rec = window.rec
        rec.marker = value
      }, marker)
      await page.getByRole('textbox', { name: 'Message' }).fill('explain the parser at length')
      await page.getByRole('textbox', { name: 'Message' }).press('Enter')
      // Once the first block is on the page: its element must survive the whole stream, and nothing outside the answer may change.
      await page.locator('.turn.assistant .markdown > *').first().waitFor({ timeout: UI_WAIT_MS })
      await page.evaluate(() => {
        const first = document.querySelector('.turn.assistant .markdown > *')
        if (first !== null) window.firstBlock = first
        const rec = window.rec
        rec.watching = true
      })
      await expect.poll(async () => (await recorder(page)).shownAt, { timeout: STREAM_WAIT_MS }).toBeGreaterThan(0)
      const rec = await recorder(page)
      const longest = longestIn(rec, rec.firstText, rec.shownAt)
      const kept = await page.evaluate(() => {
        const first = window.firstBlock
        return first.isConnected
      })
      console.log(`64 KB answer: ${rec.texts} deltas over ${(rec.lastText - rec.firstText).toFixed(0)} ms; last delta to shown ${(rec.shownAt - rec.lastText).toFixed(0)} ms; longest task ${longest.toFixed(0)} ms; long tasks during it ${rec.longtasks.filter((task) => task.start >= rec.firstText && task.start <= rec.shownAt).length}; DOM changes outside the answer ${rec.outside}`)
      expect(rec.texts).toBe(Math.ceil(answer.length / 16))
      // The longest main-thread task is printed above, not asserted: on a 2-core machine shared with
      // other test files it passed 100 ms in 4 of 11 runs (layout of the growing answer starved of CPU),
      // and a test that fails by load is a flaky test. What is asserted is the work per delta (DOM).
      expect(kept).toBe(true)
      expect(rec.outside).toBe(0)
      expect(await page.locator('.turn.assistant table').count()).toBeGreaterThan(50)
      await expect.poll(() => page.locator('.turn.assistant pre.code .hl-keyword').count(), { timeout: UI_WAIT_MS }).toBeGreaterThan(50)
      expect(await page.locator('.turn.assistant .markdown').last().evaluate((element) => element.textContent?.length ?? 0)).toBeGreaterThan(50_000)
      await shoot(page, 'perf-64k-answer')
      await page.context().close()
    },
    600_000,
  )

  it(
    'a 200-turn session: loads, typing touches no transcript node, a 1.9 KB answer changes nothing else in the page',
    async () => {
      const turns = 200
      const marker = 'END-OF-THE-LAST-ANSWER'
      const responses = Array.from({ length: turns }, (_, index) => ({ text: `${section(index + 1).slice(0, 900)}\n\nTURN-${index + 1}-END` }))
      tests.rig = await startRig([...responses, { text: answerOf(1900, marker), delayMs: 2 }])
      const { web } = tests.rig
      const sessions = await web.api<{ sessions: { id: string }[] }>('GET', '/api/sessions')
      const id = sessions.body.sessions[0]?.id ?? ''
      const watch = await watchEvents(web, id)
      for (let turn = 1; turn <= turns; turn++) {
        const from = watch.events.length
        expect((await web.api('POST', `/api/sessions/${id}/prompt`, { text: `question ${turn}` })).status).toBe(202)
        await watch.until((events) => turnFinished(events.slice(from)))
      }
      watch.close()
      const page = await openPage(tests.browser, web, { init: instrument })
      await page.locator('.turn.assistant', { hasText: `TURN-${turns}-END` }).waitFor({ timeout: UI_WAIT_MS })
      const loadMs = await page.evaluate(() => performance.now())
      await ready(page)
      // Windowed: the last 60 items are rendered; the rest say how many there are until the reader scrolls up.
      const rendered = await page.locator('.transcript-content > *').count()
      expect(rendered).toBeLessThanOrEqual(62)
      expect(await page.locator('.earlier').textContent()).toMatch(/^\d+ earlier items \(scroll up to show\)$/)
      // Closed code blocks are highlighted in idle time; wait for that before measuring typing.
      await page.waitForFunction(() => [...document.querySelectorAll('.turn.assistant pre.code')].every((pre) => pre.querySelector('.hl-keyword') !== null), undefined, { timeout: UI_WAIT_MS })
      // Typing: each key's handling, render and layout, measured from keydown to the next task (layout forced there).
      await page.evaluate(() => {
        const rec = window.rec
        rec.watching = true
        const costs: number[] = []
        window.keyCosts = costs
        // From the input event's start to the end of the page's render (Preact renders in a microtask) and a forced layout.
        let start = 0
        window.addEventListener('input', () => (start = performance.now()), { capture: true })
        window.addEventListener('input', () =>
          queueMicrotask(() =>
            queueMicrotask(() => {
              void document.body.offsetHeight
              costs.push(performance.now() - start)
            }),
          ),
        )
        // Event Timing: keyboard and input events whose handling took 16 ms or more, up to the next paint.
        const slow: number[] = []
        window.slowKeys = slow
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) slow.push(entry.duration)
        }).observe({ type: 'event', durationThreshold: 16 } as PerformanceObserverInit)
      })
      const typingFrom = await page.evaluate(() => performance.now())
      await page.getByRole('textbox', { name: 'Message' }).pressSequentially('what did step three change in the tokenizer and why')
      const typing = await page.evaluate(() => ({ costs: window.keyCosts, slow: window.slowKeys, now: performance.now() }))
      const afterTyping = await recorder(page)
      const mean = typing.costs.reduce((sum, cost) => sum + cost, 0) / Math.max(1, typing.costs.length)
      console.log(`200-turn session: loaded in ${loadMs.toFixed(0)} ms (navigation to the last answer shown); typing ${mean.toFixed(1)} ms per key on average, ${Math.max(...typing.costs).toFixed(1)} ms at most (${typing.costs.length} keys); events of 16 ms or more to the next paint: ${typing.slow.length}; transcript DOM changes while typing ${afterTyping.outside}`)
      expect(typing.costs.length).toBeGreaterThan(0)
      expect(await page.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('what did step three change in the tokenizer and why')
      expect(afterTyping.outside).toBe(0)
      // Printed, not asserted (see the 64 KB test): wall time on a shared machine.
      console.log(`200-turn session: longest task while typing ${longestIn(afterTyping, typingFrom, typing.now).toFixed(0)} ms`)
      // Streaming at the end of the long history: only the new answer changes.
      await page.evaluate((value) => {
        const rec = window.rec
        rec.watching = false
        rec.marker = value
      }, marker)
      const answers = await page.locator('.turn.assistant').count()
      await page.getByRole('textbox', { name: 'Message' }).press('Enter')
      // Watching starts once the prompt and the new answer are in the transcript (adding them is not per-delta work).
      await expect.poll(() => page.locator('.turn.assistant').count(), { timeout: UI_WAIT_MS }).toBe(answers + 1)
      await page.evaluate(() => {
        const rec = window.rec
        rec.outside = 0
        rec.watching = true
      })
      await expect.poll(async () => (await recorder(page)).shownAt, { timeout: STREAM_WAIT_MS }).toBeGreaterThan(0)
      const rec = await recorder(page)
      const longest = longestIn(rec, rec.firstText, rec.shownAt)
      console.log(`200-turn session, 1.9 KB answer: last delta to shown ${(rec.shownAt - rec.lastText).toFixed(0)} ms; longest task ${longest.toFixed(0)} ms; DOM changes outside the answer ${rec.outside}`)
      // The longest main-thread task is printed above, not asserted: on a 2-core machine shared with
      // other test files it passed 100 ms in 4 of 11 runs (layout of the growing answer starved of CPU),
      // and a test that fails by load is a flaky test. What is asserted is the work per delta (DOM).
      expect(rec.outside).toBe(0)
      await shoot(page, 'perf-200-turns')
      await page.locator('.transcript').hover()
      await page.mouse.wheel(0, -100_000)
      await expect.poll(() => page.locator('.transcript-content > *').count(), { timeout: UI_WAIT_MS }).toBeGreaterThan(rendered + 30)
      await page.context().close()
    },
    600_000,
  )
})
