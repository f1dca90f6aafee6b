/**
 * Render cost of the chat's full-screen UI (issue 13): a 2,000-line markdown answer streamed in
 * 24-character chunks into the real screen view on pi-tui (a terminal that only counts bytes,
 * 120×40), with a render after every chunk (the worst case: the UI coalesces frames to one per
 * 16 ms). Reports main-thread time per chunk (mean, median, p95) against the 5 ms goal.
 */
import type { Terminal } from '@mariozechner/pi-tui'
import { ScreenLayout } from '../packages/tui/src/screen/screen-layout.ts'
import { ScreenView } from '../packages/tui/src/screen/screen-view.ts'
import { createTheme } from '../packages/tui/src/theme.ts'
import { median } from './stats.ts'

/** What one run measured. */
export interface RenderCost {
  readonly lines: number
  readonly chunks: number
  readonly meanMs: number
  readonly medianMs: number
  readonly p95Ms: number
  readonly bytesPerChunk: number
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

function countingTerminal(counter: { bytes: number }): Terminal {
  return {
    start: () => undefined,
    stop: () => undefined,
    drainInput: () => Promise.resolve(),
    write: (data: string) => {
      counter.bytes += data.length
    },
    columns: 120,
    rows: 40,
    kittyProtocolActive: false,
    moveBy: () => undefined,
    hideCursor: () => undefined,
    showCursor: () => undefined,
    clearLine: () => undefined,
    clearFromCursor: () => undefined,
    clearScreen: () => undefined,
    setTitle: () => undefined,
    setProgress: () => undefined,
  }
}

/** Streams the answer through the screen and times each chunk. */
export function measureRenderCost(chunkSize = 24): RenderCost {
  const counter = { bytes: 0 }
  const theme = createTheme({ color: true, attributes: true })
  const layout = new ScreenLayout({ theme, now: () => 0, banner: { version: 'bench', model: 'bench', cwd: '~/bench', approvals: 'ask' }, status: { model: 'bench', cwd: '~/bench', roots: 0, approvals: 'ask', sessionId: 'bench' }, terminal: countingTerminal(counter) })
  const view = new ScreenView({ transcript: layout.transcript, theme, now: () => 0, cwd: () => '/', requestRender: () => undefined, statusChanged: () => undefined, queueChanged: () => undefined, pickSession: () => Promise.resolve(undefined) })
  const render = Reflect.get(layout.tui, 'doRender')
  if (typeof render !== 'function') throw new Error('pi-tui has no doRender: update the render-cost bench')
  const text = longAnswer()
  view.promptStarted('write a long answer')
  view.progress({ type: 'step-start', turn: 1, step: 1 })
  const times: number[] = []
  for (let at = 0; at < text.length; at += chunkSize) {
    const started = performance.now()
    view.progress({ type: 'text', text: text.slice(at, at + chunkSize) })
    Reflect.apply(render, layout.tui, [])
    times.push(performance.now() - started)
  }
  const sorted = times.toSorted((a, b) => a - b)
  return {
    lines: text.split('\n').length - 1,
    chunks: times.length,
    meanMs: times.reduce((sum, time) => sum + time, 0) / times.length,
    medianMs: median(times),
    p95Ms: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
    bytesPerChunk: counter.bytes / times.length,
  }
}

/** Report lines. */
export function describeRenderCost(cost: RenderCost): string[] {
  return [
    '',
    `chat render cost (issue 13): ${cost.lines}-line markdown answer in ${cost.chunks} chunks, rendered after every chunk at 120x40`,
    `  main-thread time per chunk: mean ${cost.meanMs.toFixed(2)} ms, median ${cost.medianMs.toFixed(2)} ms, p95 ${cost.p95Ms.toFixed(2)} ms; ${Math.round(cost.bytesPerChunk)} bytes written per chunk`,
    `  target: < 5 ms per chunk on average: ${cost.meanMs < 5 ? 'met' : 'NOT met'}`,
  ]
}
