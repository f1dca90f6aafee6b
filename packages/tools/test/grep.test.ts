// grep tool: output modes, glob filter, skipped files, invalid regex, caps (golden texts).
import { execFileSync } from 'node:child_process'
import { tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { grepTool } from '../src/index.ts'
import { call, runContext, seen } from './helpers.ts'

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({
    'src/a.ts': 'export const TODO = 1\n// todo: lower\nfinal TODO line',
    'src/b.js': 'nothing here\r\nTODO in js\r\n',
    'docs/c.md': 'no match\n',
    'node_modules/x/index.ts': 'TODO hidden\n',
    'bin/data.bin': new Uint8Array([0x54, 0x4f, 0x44, 0x4f, 0x00, 0x01]),
    'bin/utf16.txt': new Uint8Array([0xff, 0xfe, ...Buffer.from('TODO', 'utf16le')]),
  })
})
afterEach(async () => {
  await tree.dispose()
})

const grep = (args: unknown) => call(grepTool, args, runContext({ cwd: tree.root }))
const skippedNote = '[Skipped 2 file(s) that are binary, not UTF-8, unreadable or over 1 MiB.]'

describe('output modes', () => {
  it('lists files with matches by default, sorted, with a skipped note', async () => {
    expect(seen(await grep({ pattern: 'TODO' }))).toEqual({
      isError: false,
      content: `src/a.ts\nsrc/b.js\n${skippedNote}`,
    })
  })

  it('shows matching lines as path:line:text', async () => {
    expect(seen(await grep({ pattern: 'TODO', path: 'src', output_mode: 'content' }))).toEqual({
      isError: false,
      content: 'a.ts:1:export const TODO = 1\na.ts:3:final TODO line\nb.js:2:TODO in js',
    })
  })

  it('counts matching lines per file, case-insensitively when asked', async () => {
    expect(seen(await grep({ pattern: 'todo', path: 'src', case_insensitive: true, output_mode: 'count' }))).toEqual({
      isError: false,
      content: 'a.ts:3\nb.js:1',
    })
  })

  it('filters by glob on the file name at any depth', async () => {
    expect(seen(await grep({ pattern: 'TODO', glob: '*.ts' })).content).toBe('src/a.ts')
    expect(seen(await grep({ pattern: 'TODO', glob: 'src/**/*.js' })).content).toBe('src/b.js')
  })

  it('anchors $ at the end of CRLF lines', async () => {
    expect(seen(await grep({ pattern: 'js$', path: 'src/b.js', output_mode: 'content' })).content).toBe('src/b.js:2:TODO in js')
  })

  it('searches a single file', async () => {
    expect(seen(await grep({ pattern: '^final', path: 'src/a.ts', output_mode: 'content' })).content).toBe(
      'src/a.ts:3:final TODO line',
    )
  })

  it('supports unicode property escapes', async () => {
    await tree.write({ 'u.txt': 'abc\nÉté\n' })
    expect(seen(await grep({ pattern: '^\\p{Lu}', path: 'u.txt', output_mode: 'content' })).content).toBe('u.txt:2:Été')
  })
})

describe('limits and errors', () => {
  it('says when nothing matches', async () => {
    expect(seen(await grep({ pattern: 'zzz', path: 'docs' }))).toEqual({ isError: false, content: 'No matches for /zzz/ (searched: docs).' })
  })

  it('reports an invalid regular expression with a hint', async () => {
    expect(seen(await grep({ pattern: 'foo(' }))).toEqual({
      isError: true,
      content:
        'Invalid regular expression: Invalid regular expression: /foo(/: Unterminated group. Use JavaScript regex syntax and escape literal ( ) [ ] { } . * + ? | \\ with a backslash.',
    })
  })

  it('skips FIFOs without hanging', async () => {
    execFileSync('mkfifo', [tree.path('docs/pipe')])
    expect(seen(await grep({ pattern: 'match', path: 'docs' })).content).toBe('c.md')
  })

  it('caps content lines with a note', async () => {
    await tree.write({ 'many.txt': 'hit\n'.repeat(400) })
    const lines = seen(await grep({ pattern: 'hit', path: 'many.txt', output_mode: 'content' })).content.split('\n')
    expect(lines).toHaveLength(301)
    expect(lines[300]).toBe('[Showing 300 of 400 matching lines. Narrow the pattern, path or glob.]')
  })

  it('explains a missing path', async () => {
    expect(seen(await grep({ pattern: 'x', path: 'nope' }))).toEqual({
      isError: true,
      content: `Not found: nope. Relative paths resolve against ${tree.root}; omit path to search there.`,
    })
  })
})
