// grep tool: output modes, order and pages, notes, the fallback walker and the time limit (golden texts).
import { execFileSync } from 'node:child_process'
import { chmodSync, utimesSync, writeFileSync } from 'node:fs'
import { tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createGrepTool, grepTool } from '../src/index.ts'
import { call, runContext, seen } from './helpers.ts'

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({
    '.gitignore': 'ignored/\n',
    'src/a.ts': 'export const TODO = 1\n// todo: lower\nfinal TODO line',
    'src/b.js': 'nothing here\r\nTODO in js\r\n',
    'docs/c.md': 'no match\n',
    'ignored/x.ts': 'TODO ignored\n',
    'bin/data.bin': new Uint8Array([0x54, 0x4f, 0x44, 0x4f, 0x00, 0x01]),
  })
  execFileSync('git', ['init', '-q'], { cwd: tree.root })
  const at = (relative: string, seconds: number) => utimesSync(tree.path(relative), seconds, seconds)
  at('src/a.ts', 2_000_000)
  at('src/b.js', 1_000_000)
})
afterEach(async () => {
  await tree.dispose()
})

const grep = (args: unknown) => call(grepTool, args, runContext({ cwd: tree.root }))

describe('output modes', () => {
  it('lists files with matches, most recently modified first, leaving out ignored and binary files', async () => {
    expect(seen(await grep({ pattern: 'TODO' }))).toEqual({ isError: false, content: 'src/a.ts\nsrc/b.js' })
    utimesSync(tree.path('src/b.js'), 3_000_000, 3_000_000)
    expect(seen(await grep({ pattern: 'TODO' })).content).toBe('src/b.js\nsrc/a.ts')
  })

  it('shows matching lines as path:line:text, paths relative to the working directory', async () => {
    expect(seen(await grep({ pattern: 'TODO', path: 'src', output_mode: 'content' }))).toEqual({
      isError: false,
      content: 'src/a.ts:1:export const TODO = 1\nsrc/a.ts:3:final TODO line\nsrc/b.js:2:TODO in js',
    })
  })

  it('counts matching lines per file, case-insensitively when asked', async () => {
    expect(seen(await grep({ pattern: 'todo', path: 'src', case_insensitive: true, output_mode: 'count' })).content).toBe('src/a.ts:3\nsrc/b.js:1')
  })

  it('filters by glob on the file name at any depth, or on the path with "/", without bringing ignored files back', async () => {
    expect(seen(await grep({ pattern: 'TODO', glob: '*.ts' })).content).toBe('src/a.ts')
    expect(seen(await grep({ pattern: 'TODO', glob: 'src/**/*.js' })).content).toBe('src/b.js')
    expect(seen(await grep({ pattern: 'TODO', glob: 'ignored/*' })).content).toBe('No matches for /TODO/ (searched: .).')
  })

  it('searches a single file, also an ignored one named as path', async () => {
    expect(seen(await grep({ pattern: '^final', path: 'src/a.ts', output_mode: 'content' })).content).toBe('src/a.ts:3:final TODO line')
    expect(seen(await grep({ pattern: 'TODO', path: 'ignored/x.ts' })).content).toBe('ignored/x.ts')
  })

  it('supports unicode property escapes', async () => {
    await tree.write({ 'u.txt': 'abc\nÉté\n' })
    expect(seen(await grep({ pattern: '^\\p{Lu}', path: 'u.txt', output_mode: 'content' })).content).toBe('u.txt:2:Été')
  })
})

describe('pages', () => {
  it('pages content with offset and names the total', async () => {
    await tree.write({ 'many.txt': 'hit\n'.repeat(400) })
    const first = seen(await grep({ pattern: 'hit', path: 'many.txt', output_mode: 'content' })).content.split('\n')
    expect(first).toHaveLength(301)
    expect(first[299]).toBe('many.txt:300:hit')
    // F20: path is one file, so only the pattern can be narrowed.
    expect(first[300]).toBe('[Matches 1-300 of 400 in 1 files, most recently modified files first. Call grep with offset=300 for the next page, or narrow the pattern.]')
    const second = seen(await grep({ pattern: 'hit', path: 'many.txt', output_mode: 'content', offset: 300 })).content.split('\n')
    expect(second).toHaveLength(101)
    expect(second[0]).toBe('many.txt:301:hit')
    expect(second[100]).toBe('[Matches 301-400 of 400 in 1 files, most recently modified files first.]')
  })

  it('F20: pages of a directory without subdirectories advise the pattern or glob, never path', async () => {
    await tree.write(Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`flat/f${String(i).padStart(3, '0')}.txt`, 'hit\n'])))
    const lines = seen(await grep({ pattern: 'hit', path: 'flat' })).content.split('\n')
    expect(lines[200]).toBe('[Files 1-200 of 250, most recently modified first. Call grep with offset=200 for the next page, or narrow the pattern or glob.]')
    expect(seen(await grep({ pattern: 'hit', path: 'flat', output_mode: 'count', offset: 100 })).content.split('\n')[150]).toBe(
      '[Files 101-250 of 250, most recently modified first.]',
    )
  })

  it('pages files with offset', async () => {
    await tree.write(Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`many/f${String(i).padStart(3, '0')}.txt`, 'hit\n'])))
    const first = seen(await grep({ pattern: 'hit' })).content.split('\n')
    expect(first).toHaveLength(201)
    expect(first[200]).toBe('[Files 1-200 of 250, most recently modified first. Call grep with offset=200 for the next page, or narrow the pattern, path or glob.]')
    const rest = seen(await grep({ pattern: 'hit', offset: 200 })).content.split('\n')
    expect(rest).toHaveLength(51)
    expect(rest[50]).toBe('[Files 201-250 of 250, most recently modified first.]')
    expect(new Set([...first.slice(0, 200), ...rest.slice(0, 50)]).size).toBe(250)
    expect(seen(await grep({ pattern: 'hit', offset: 250 })).content).toBe('Offset 250 is past the end: there are 250 files. Use an offset below 250.')
  })
})

describe('errors and limits', () => {
  it('says when nothing matches', async () => {
    expect(seen(await grep({ pattern: 'zzz', path: 'docs' }))).toEqual({ isError: false, content: 'No matches for /zzz/ (searched: docs).' })
  })

  it('reports an invalid regular expression with rg\'s reason and a hint', async () => {
    expect(seen(await grep({ pattern: 'foo(' }))).toEqual({
      isError: true,
      content: 'Invalid regular expression /foo(/: unclosed group. Use ripgrep regex syntax and escape literal ( ) [ ] { } . * + ? | \\ with a backslash.',
    })
  })

  it('skips FIFOs without hanging', async () => {
    execFileSync('mkfifo', [tree.path('docs/pipe')])
    expect(seen(await grep({ pattern: 'match', path: 'docs' })).content).toBe('docs/c.md')
  })

  it('explains a missing path', async () => {
    expect(seen(await grep({ pattern: 'x', path: 'nope' }))).toEqual({
      isError: true,
      content: `Not found: nope. Relative paths resolve against ${tree.root}; omit path to search there.`,
    })
  })

  it('kills rg at the time limit and says the results are incomplete', async () => {
    const slow = tree.path('slow-rg')
    writeFileSync(slow, '#!/bin/sh\nexec sleep 60\n')
    chmodSync(slow, 0o755)
    const limited = createGrepTool({ ripgrepPath: slow, timeLimitMs: 300 })
    expect(seen(await call(limited, { pattern: 'TODO' }, runContext({ cwd: tree.root })))).toEqual({
      isError: false,
      content: 'No matches for /TODO/ (searched: .).\n[Stopped at the 0.3 s time limit: the results are incomplete. Narrow path or glob, or simplify the pattern.]',
    })
  })

  it('F20: words the time-limit advice for what path is (a file, a directory without subdirectories)', async () => {
    const slow = tree.path('slow-rg')
    writeFileSync(slow, '#!/bin/sh\nexec sleep 60\n')
    chmodSync(slow, 0o755)
    const limited = createGrepTool({ ripgrepPath: slow, timeLimitMs: 300 })
    expect(seen(await call(limited, { pattern: 'TODO', path: 'src/a.ts' }, runContext({ cwd: tree.root }))).content).toBe(
      'No matches for /TODO/ (searched: src/a.ts).\n[Stopped at the 0.3 s time limit: the results are incomplete. Simplify the pattern (without lookaround and backreferences it runs in linear time), or read the file in pages with read (offset, limit).]',
    )
    expect(seen(await call(limited, { pattern: 'TODO', path: 'src' }, runContext({ cwd: tree.root }))).content).toBe(
      'No matches for /TODO/ (searched: src).\n[Stopped at the 0.3 s time limit: the results are incomplete. Pass a glob to search fewer of its files, or simplify the pattern.]',
    )
  })
})

describe('the built-in walker (rg cannot run)', () => {
  const walker = createGrepTool({ ripgrepPath: '/nonexistent/rg' })
  const notice =
    '[ripgrep could not run (ENOENT), so this result comes from the built-in search: it reads no ignore files (only .git and node_modules are skipped), skips files over 1 MiB and non-UTF-8 files, and matches JavaScript regular expressions line by line.]'

  it('searches, says so once, and names each reason a file was left out', async () => {
    await tree.write({ 'big.txt': `${'x\n'.repeat(600_000)}TODO\n`, '.env': 'TODO=1\n' })
    execFileSync('ln', ['-s', 'nowhere', tree.path('broken.ts')])
    expect(seen(await call(walker, { pattern: 'TODO' }, runContext({ cwd: tree.root }))).content).toBe(
      [
        'ignored/x.ts',
        'src/a.ts',
        'src/b.js',
        notice,
        '[Skipped 1 file over 1 MiB, too large for the built-in search; read pages through a file of any size.]',
        '[Skipped 1 binary or non-UTF-8 file.]',
        '[Skipped 1 broken symbolic link (the target does not exist).]',
        '[Skipped 1 .env file: .env files usually hold secrets; name one as path to search it.]',
      ].join('\n'),
    )
  })

  it('gives paths relative to the working directory there too', async () => {
    expect(seen(await call(walker, { pattern: 'TODO', path: 'src', output_mode: 'content' }, runContext({ cwd: tree.root }))).content).toBe(
      `src/a.ts:1:export const TODO = 1\nsrc/a.ts:3:final TODO line\nsrc/b.js:2:TODO in js\n${notice}`,
    )
  })
})
