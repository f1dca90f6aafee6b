// grep's content mode answers from one rg pass while the output is small and from two passes
// (counts, then the chosen files) otherwise: both give the same text for the same call. Checked on
// the search fixture (ignore files, hidden files, .env, encodings, long lines) for patterns,
// globs, offsets, a case-insensitive search, a single file and a file beyond the byte cap, with
// the cap forced to 0 for the two-pass answer. A result that passes the cap falls back by itself.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGrepTool } from '../src/index.ts'
import { call, runContext, seen } from './helpers.ts'
import { searchFixture, type SearchFixture } from './search-fixture.ts'

let fixture: SearchFixture
const saved = process.env['HOME']
beforeAll(() => {
  fixture = searchFixture()
  process.env['HOME'] = fixture.home
  // Many matching lines: about 4 MB of rg JSON, past the one-pass cap.
  writeFileSync(join(fixture.root, 'many.txt'), Array.from({ length: 40_000 }, (_, index) => `crowded line ${index} with the word crowd\n`).join(''))
})
afterAll(() => {
  if (saved === undefined) delete process.env['HOME']
  else process.env['HOME'] = saved
  fixture.dispose()
})

const onePass = createGrepTool()
const twoPasses = createGrepTool({ onePassMaxBytes: 0 })
const both = async (args: Record<string, unknown>): Promise<[string, string]> => {
  const run = runContext({ cwd: fixture.root })
  const content = { output_mode: 'content', ...args }
  return [seen(await call(onePass, content, run)).content, seen(await call(twoPasses, content, run)).content]
}

describe('grep content in one pass and in two', () => {
  it.each([
    { pattern: 'needle', case_insensitive: true },
    { pattern: 'needle', case_insensitive: true, offset: 3 },
    { pattern: 'needle', glob: '*.ts' },
    { pattern: 'NEEDLE=', glob: '.env*' },
    { pattern: 'crowd', offset: 39_950 },
    { pattern: 'crowded line 1\\d{3} ' },
    { pattern: 'no such text anywhere' },
  ])('gives the same answer for %j', async (args) => {
    const [one, two] = await both(args)
    expect(one).toBe(two)
    expect(one).not.toBe('')
  })

  it('gives the same answer for a single file as path', async () => {
    const [one, two] = await both({ pattern: 'crowded line 3999\\d', path: 'many.txt' })
    expect(one).toBe(two)
    expect(one.split('\n').filter((line) => line.startsWith('many.txt:'))).toHaveLength(10)
  })
})
