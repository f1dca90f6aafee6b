// read's line index (issue 22): pages anywhere in a 50+ MB file, kept between reads of the
// unchanged file (asserted with the cache's counters, never by time), dropped when the file
// changes; one-line files paged by characters; and a property: reads with an index (tiny strides,
// so positions are thinned) show exactly what reads without one show.
import { writeFileSync } from 'node:fs'
import * as fc from 'fast-check'
import { tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createReadTool, LineIndexCache, readTool } from '../src/index.ts'
import { call, runContext, seen } from './helpers.ts'

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({})
})
afterEach(async () => {
  await tree.dispose()
})

/** Line `n` of the generated multi-line file: ASCII and multi-byte characters, 58 bytes or more. */
const lineText = (n: number): string => `${String(n).padStart(8, '0')} ${n % 7 === 0 ? 'café ☕ 𝄞 ' : 'plain text '}${'x'.repeat(n % 40)}`

/** Lines `from`-`to` as read shows them. */
const numbered = (from: number, to: number, text = lineText): string => Array.from({ length: to - from + 1 }, (_, i) => `${String(from + i).padStart(6)}\t${text(from + i)}`).join('\n')

describe('the line index', () => {
  it('reads line N near the end of a 50+ MB file right, uses the index on the next read, and drops it when the file changes', async () => {
    const count = 1_300_000
    const parts: string[] = []
    for (let n = 1; n <= count; n++) parts.push(lineText(n))
    writeFileSync(tree.path('big.txt'), `${parts.join('\n')}\n`)
    const size = Buffer.byteLength(`${parts.join('\n')}\n`)
    expect(size).toBeGreaterThan(50 * 1024 * 1024)
    const cache = new LineIndexCache()
    const read = (args: Record<string, unknown>) => call(createReadTool({ lineIndex: cache }), { file_path: 'big.txt', ...args }, runContext({ cwd: tree.root }))

    expect(seen(await read({ offset: 1_299_990, limit: 3 })).content).toBe(`${numbered(1_299_990, 1_299_992)}\n[Showing lines 1299990-1299992; the file continues. Call read with offset=1299993 to read more.]`)
    expect(cache.counters).toMatchObject({ hits: 0, invalidated: 0 })
    const firstPass = cache.counters.bytesStreamed
    expect(firstPass).toBeGreaterThan(size * 0.99)

    expect(seen(await read({ offset: 1_299_999 })).content).toBe(numbered(1_299_999, count))
    expect(cache.counters.hits).toBe(1)
    expect(cache.counters.bytesStreamed - firstPass).toBeLessThan(64 * 1024)
    // Lines before the deepest read so far come from the positions it recorded on the way.
    const before = cache.counters.bytesStreamed
    expect(seen(await read({ offset: 700_001, limit: 2 })).content).toBe(`${numbered(700_001, 700_002)}\n[Showing lines 700001-700002; the file continues. Call read with offset=700003 to read more.]`)
    expect(cache.counters.hits).toBe(2)
    expect(cache.counters.bytesStreamed - before).toBeLessThan(256 * 1024)
    // The end is known: an offset past it is answered from the index.
    expect(seen(await read({ offset: count + 1 }))).toEqual({ isError: true, content: `Line ${count + 1} is past the end of big.txt, which has ${count} line(s). Use an offset from 1 to ${count}.` })

    // A line inserted at the top shifts every line: the old positions must not be used.
    writeFileSync(tree.path('big.txt'), `inserted\n${parts.join('\n')}\n`)
    expect(seen(await read({ offset: 1_299_991, limit: 2 })).content).toBe(`${numbered(1_299_991, 1_299_992, (n) => lineText(n - 1))}\n[Showing lines 1299991-1299992; the file continues. Call read with offset=1299993 to read more.]`)
    expect(cache.counters).toMatchObject({ hits: 3, invalidated: 1 })
  })

  it('pages a 52 MB one-line file by characters near its end, from the index on the next read', async () => {
    const unit = 'abcdefgh'.repeat(6) + 'é☕𝄞'
    const line = unit.repeat(Math.ceil(52_000_000 / unit.length))
    writeFileSync(tree.path('min.js'), line)
    const cache = new LineIndexCache()
    const read = (args: Record<string, unknown>) => call(createReadTool({ lineIndex: cache }), { file_path: 'min.js', offset: 1, ...args }, runContext({ cwd: tree.root }))
    // F20: the first page says how to reach a place deep in the line.
    expect(seen(await read({})).content).toBe(
      `     1\t${line.slice(0, 2000)}… [line cut: ${line.length - 2000} more characters]\n` +
        `[1 line(s) longer than 2000 characters were cut. Line 1 shows characters 1-2000 of ${line.length}: call read with offset=1, char_offset=2001 to page through it. ` +
        'To go to a place in it, grep this file with output_mode "content": each match shows [characters A-B of N]; then call read with char_offset=A.]',
    )
    cache.counters.bytesStreamed = 0
    const from = line.length - 30_000 + 1
    expect(seen(await read({ char_offset: from })).content).toBe(
      `     1\t${line.slice(from - 1, from - 1 + 20_000)}\n[Line 1, characters ${from}-${from + 19_999} of ${line.length}. Call read with offset=1, char_offset=${from + 20_000} for the next characters.]`,
    )
    const firstPass = cache.counters.bytesStreamed
    const next = from + 20_000
    expect(seen(await read({ char_offset: next })).content).toBe(`     1\t${line.slice(next - 1)}\n[Line 1, characters ${next}-${line.length} of ${line.length}.]`)
    // Hits: the char_offset read after the first page, then this one (which starts from its positions).
    expect(cache.counters.hits).toBe(2)
    expect(cache.counters.bytesStreamed - firstPass).toBeLessThan(128 * 1024)
    // The line's length is known now: a slice in the middle stops reading once it is full.
    const middle = 26_000_001
    const before = cache.counters.bytesStreamed
    expect(seen(await read({ char_offset: middle })).content).toBe(
      `     1\t${line.slice(middle - 1, middle - 1 + 20_000)}\n[Line 1, characters ${middle}-${middle + 19_999} of ${line.length}. Call read with offset=1, char_offset=${middle + 20_000} for the next characters.]`,
    )
    expect(cache.counters.bytesStreamed - before).toBeLessThan(128 * 1024)
  })

  it('keeps at most 16 files', async () => {
    const cache = new LineIndexCache()
    const tool = createReadTool({ lineIndex: cache })
    for (let n = 0; n <= 16; n++) writeFileSync(tree.path(`f${n}.txt`), 'one\ntwo\n')
    for (let n = 0; n <= 16; n++) await call(tool, { file_path: `f${n}.txt` }, runContext({ cwd: tree.root }))
    await call(tool, { file_path: 'f16.txt' }, runContext({ cwd: tree.root }))
    expect(cache.counters.hits).toBe(1)
    await call(tool, { file_path: 'f0.txt' }, runContext({ cwd: tree.root }))
    expect(cache.counters.hits).toBe(1)
  })
})

/** Characters the property's files are made of: newlines, CR, ASCII, 2-, 3- and 4-byte characters. */
const piece = fc.constantFrom('\n', '\n', '\r\n', 'a', 'bc', 'é', '☕', '𝄞', ' ', '\n\n')

describe('property', () => {
  it('reads with a thinned index show exactly what reads from the start show', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 400 }).map((pieces) => pieces.join('')),
        fc.array(fc.record({ offset: fc.integer({ min: 1, max: 120 }), limit: fc.integer({ min: 1, max: 30 }), char: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }) }), { minLength: 1, maxLength: 12 }),
        async (text, reads) => {
          writeFileSync(tree.path('p.txt'), text)
          const indexed = createReadTool({ lineIndex: new LineIndexCache({ lineStride: 2, charStride: 3, maxStops: 4 }) })
          const run = runContext({ cwd: tree.root })
          for (const { offset, limit, char } of reads) {
            const args = { file_path: 'p.txt', offset, limit, ...(char === undefined ? {} : { char_offset: char }) }
            expect(seen(await call(indexed, args, run))).toEqual(seen(await call(readTool, args, run)))
          }
        },
      ),
      { numRuns: 150 },
    )
  })
})
