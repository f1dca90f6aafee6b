// A running call's output under its row: the last lines, carriage-return progress shown as its
// latest state, control characters removed, a bounded tail with a count of the lines that went;
// the row shows them while the call runs and collapses to its summary when it ends.
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ToolFinalOutcome } from '@dsh/contracts'
import { keptOutputChars, LiveOutput } from '../src/screen/live-output.ts'
import { ToolRow } from '../src/screen/tool-row.ts'
import { createTheme } from '../src/theme.ts'

describe('LiveOutput', () => {
  it('keeps the last lines, the latest state of a \\r progress line, and no escape sequences', () => {
    const out = new LiveOutput()
    out.append('one\ntwo\n')
    out.append('progress 10%\rprogress 90%\r')
    out.append('progress 100%\n\x1b[31mred\x1b[0m\npartial')
    expect(out.last(3)).toEqual({ lines: ['progress 100%', '[31mred[0m', 'partial'], earlier: 2 })
  })

  it('for any chunks, shows the last lines of everything printed and counts the rest, within the bound', () => {
    const chunk = fc.stringMatching(/^[a-z\n]{0,300}$/)
    fc.assert(
      fc.property(fc.array(chunk, { maxLength: 200 }), fc.integer({ min: 1, max: 8 }), (chunks, count) => {
        const out = new LiveOutput()
        for (const text of chunks) out.append(text)
        const all = chunks.join('').replace(/\n$/, '').split('\n')
        const { lines, earlier } = out.last(count)
        expect(earlier + lines.length).toBe(all.length)
        const expected = all.slice(-lines.length)
        // The first shown line may have been cut at the bound (one line longer than it); the others are whole.
        expect(lines.slice(1)).toEqual(expected.slice(1))
        expect(expected[0]?.endsWith(lines[0] ?? '')).toBe(true)
      }),
    )
    const big = new LiveOutput()
    big.append(`${'x'.repeat(100)}\n`.repeat(1000))
    const { lines, earlier } = big.last(5)
    expect(lines).toEqual(Array.from({ length: 5 }, () => 'x'.repeat(100)))
    expect(earlier).toBe(995)
    expect(keptOutputChars).toBeLessThan(101 * 1000)
  })
})

describe('a running tool row', () => {
  const theme = createTheme({ color: false, attributes: false })
  const outcome: ToolFinalOutcome = { isError: false, content: 'tick-1\ntick-2\n\n[Exit code: 0]', touched: [], additionalContexts: [], status: 'ok' }

  it('shows the last five lines under the spinner, then only its summary when done', () => {
    const row = new ToolRow({ callId: 'c1', name: 'bash', rawArguments: '{"command":"./ticks.sh"}', theme, now: () => 0 })
    for (let i = 1; i <= 7; i += 1) row.appendOutput(`tick-${i}\n`)
    expect(row.render(80).slice(1)).toEqual(['  │ … 2 earlier lines', '  │ tick-3', '  │ tick-4', '  │ tick-5', '  │ tick-6', '  │ tick-7'])
    row.finish(outcome, undefined)
    const done = row.render(80)
    expect(done).toHaveLength(1)
    expect(done[0]).toMatch(/^✓ bash \.\/ticks\.sh/)
  })

  it('says it waits for the person while its question is open, and runs on with the spinner once answered', () => {
    let asking = true
    const row = new ToolRow({ callId: 'c1', name: 'bash', rawArguments: '{"command":"npm test"}', theme, now: () => 4200, waiting: () => asking })
    expect(row.render(80)).toEqual(['? bash npm test waiting for you'])
    asking = false
    expect(row.render(80)[0]).toMatch(/^⠹ bash npm test 0s$|^⠹ bash npm test/)
    // A row that already printed is running, whatever else asks meanwhile.
    row.appendOutput('tick\n')
    asking = true
    expect(row.render(80)[0]).toMatch(/^⠹ bash npm test/)
  })
})
