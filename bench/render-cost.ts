/**
 * Render cost of the chat's full-screen UI (issue 13): a 2,000-line markdown answer streamed in
 * 24-character chunks into the real screen view on pi-tui (a terminal that only counts bytes,
 * 120×40), with a render after every chunk (the worst case: the UI coalesces frames to one per
 * 16 ms). Reports main-thread time per chunk (mean, median, p95) against the 5 ms goal.
 * Then typing in a long chat: after 100 and 400 finished turns (a prompt, a tool row and a
 * 30-line markdown answer each), the time of one keystroke in the editor plus the frame it
 * causes, which grows with the transcript (pi-tui compares every line once per frame).
 */
import { ScreenLayout } from '../packages/tui/src/screen/screen-layout.ts'
import { ScreenView } from '../packages/tui/src/screen/screen-view.ts'
import { createTheme } from '../packages/tui/src/theme.ts'
import { testTerminal } from '../packages/tui/test/test-terminal.ts'
import { median } from './stats.ts'

/** Keystroke cost after a number of finished turns. */
export interface TypingCost {
  readonly turns: number
  readonly transcriptLines: number
  readonly medianMs: number
  readonly p95Ms: number
}

/** What one run measured. */
export interface RenderCost {
  readonly lines: number
  readonly chunks: number
  readonly meanMs: number
  readonly medianMs: number
  readonly p95Ms: number
  readonly bytesPerChunk: number
  readonly typing: readonly TypingCost[]
}

/** A 2,000-line answer with headings, paragraphs, lists, code and tables. */
export function longAnswer(lines = 2000): string {
  const out: string[] = []
  for (let i = 0; out.length < lines; i++) {
    const kind = i % 6
    if (kind === 0) out.push(`## Section ${i}`, '')
    else if (kind === 1) out.push(`Paragraph ${i} explains the change with **emphasis**, \`inline code\` and enough words to wrap at a hundred and twenty columns in the terminal.`, '')
    else if (kind === 2) out.push('- first point', '- second *point*', '- third point', '')
    else if (kind === 3) out.push('```ts', ...Array.from({ length: 8 }, (_, j) => `const value${j} = compute(${j}) // step ${j}`), '```', '')
    else if (kind === 4) out.push('| file | change |', '|---|---|', '| a.ts | renamed |', '| b.ts | removed |', '')
    else out.push('That closes the section.', '')
  }
  return `${out.slice(0, lines).join('\n')}\n`
}

/** The real layout and view on a counting terminal, and a function that renders one frame now. */
function benchScreen(counter: { bytes: number }): { layout: ScreenLayout; view: ScreenView; frame: () => void } {
  const theme = createTheme({ color: true, attributes: true })
  const layout = new ScreenLayout({ theme, now: () => 0, banner: { version: 'bench', model: 'bench', cwd: '~/bench', approvals: 'ask' }, status: { model: 'bench', cwd: '~/bench', roots: 0, approvals: 'ask', sessionId: 'bench' }, terminal: testTerminal(120, 40, (data) => (counter.bytes += data.length)).terminal })
  const view = new ScreenView({ transcript: layout.transcript, theme, now: () => 0, cwd: () => '/', requestRender: () => undefined, statusChanged: () => undefined, queueChanged: () => undefined, restoreDraft: () => undefined, pickSession: () => Promise.resolve(undefined), choose: () => Promise.resolve(undefined) })
  const render = Reflect.get(layout.tui, 'doRender')
  if (typeof render !== 'function') throw new Error('pi-tui has no doRender: update the render-cost bench')
  return { layout, view, frame: () => Reflect.apply(render, layout.tui, []) }
}

const percentile = (times: readonly number[], share: number): number => times.toSorted((a, b) => a - b)[Math.floor(times.length * share)] ?? 0

/** One keystroke plus its frame, after `turns` finished turns. */
export function measureTypingCost(turns: number, keystrokes = 200): TypingCost {
  const { layout, view, frame } = benchScreen({ bytes: 0 })
  const answer = longAnswer(30)
  for (let turn = 1; turn <= turns; turn++) {
    view.promptStarted(`question number ${turn}`)
    view.progress({ type: 'step-start', turn, step: 1 })
    view.progress({ type: 'tool-start', callId: `c${turn}`, name: 'read', arguments: '{"file_path":"src/a.ts"}' })
    view.progress({ type: 'tool-end', callId: `c${turn}`, name: 'read', outcome: { isError: false, content: '     1\tconst a = 1\n     2\tconst b = 2', touched: [], additionalContexts: [], status: 'ok' } })
    view.progress({ type: 'step-start', turn, step: 2 })
    view.progress({ type: 'text', text: answer })
    view.progress({ type: 'turn-end', turn, reason: 'completed' })
  }
  frame()
  const transcriptLines = layout.transcript.render(120).length
  const times: number[] = []
  for (let key = 0; key < keystrokes; key++) {
    const started = performance.now()
    layout.editor.handleInput(key % 40 === 39 ? '\x7f' : 'a')
    frame()
    times.push(performance.now() - started)
  }
  return { turns, transcriptLines, medianMs: median(times), p95Ms: percentile(times, 0.95) }
}

/** Streams the answer through the screen and times each chunk; then the typing costs. */
export function measureRenderCost(chunkSize = 24): RenderCost {
  const counter = { bytes: 0 }
  const { view, frame } = benchScreen(counter)
  const text = longAnswer()
  view.promptStarted('write a long answer')
  view.progress({ type: 'step-start', turn: 1, step: 1 })
  const times: number[] = []
  for (let at = 0; at < text.length; at += chunkSize) {
    const started = performance.now()
    view.progress({ type: 'text', text: text.slice(at, at + chunkSize) })
    frame()
    times.push(performance.now() - started)
  }
  return {
    lines: text.split('\n').length - 1,
    chunks: times.length,
    meanMs: times.reduce((sum, time) => sum + time, 0) / times.length,
    medianMs: median(times),
    p95Ms: percentile(times, 0.95),
    bytesPerChunk: counter.bytes / times.length,
    typing: [measureTypingCost(100), measureTypingCost(400)],
  }
}

/** Report lines. */
export function describeRenderCost(cost: RenderCost): string[] {
  return [
    '',
    `chat render cost (issue 13): ${cost.lines}-line markdown answer in ${cost.chunks} chunks, rendered after every chunk at 120x40`,
    `  main-thread time per chunk: mean ${cost.meanMs.toFixed(2)} ms, median ${cost.medianMs.toFixed(2)} ms, p95 ${cost.p95Ms.toFixed(2)} ms; ${Math.round(cost.bytesPerChunk)} bytes written per chunk`,
    `  target: < 5 ms per chunk on average: ${cost.meanMs < 5 ? 'met' : 'NOT met'}`,
    ...cost.typing.map((typing) => `  typing after ${typing.turns} turns (${typing.transcriptLines} transcript lines): ${typing.medianMs.toFixed(2)} ms median, ${typing.p95Ms.toFixed(2)} ms p95 per keystroke and its frame`),
  ]
}
