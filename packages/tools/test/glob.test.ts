// glob tool: matching rules, newest-first order, pages, ignore files, links, the fallback (golden texts).
import { execFileSync } from 'node:child_process'
import { chmodSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createGlobTool, globTool } from '../src/index.ts'
import { call, runContext, seen } from './helpers.ts'

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({
    '.gitignore': 'build/\n',
    'src/old.ts': '',
    'src/new.ts': '',
    'src/deep/mid.ts': '',
    'src/readme.md': '',
    'src/.hidden.ts': '',
    '.config/x.ts': '',
    'build/out.ts': '',
  })
  execFileSync('git', ['init', '-q'], { cwd: tree.root })
  const at = (relative: string, seconds: number) => utimesSync(tree.path(relative), seconds, seconds)
  at('src/old.ts', 1_000_000)
  at('src/deep/mid.ts', 2_000_000)
  at('src/new.ts', 3_000_000)
  at('src/.hidden.ts', 500_000)
  at('.config/x.ts', 400_000)
})
afterEach(async () => {
  await tree.dispose()
})

const glob = (args: unknown) => call(globTool, args, runContext({ cwd: tree.root }))

describe('glob', () => {
  it('lists matches newest first, with hidden files, without ignored files or .git', async () => {
    expect(seen(await glob({ pattern: '**/*.ts' }))).toEqual({
      isError: false,
      content: 'src/new.ts\nsrc/deep/mid.ts\nsrc/old.ts\nsrc/.hidden.ts\n.config/x.ts',
    })
  })

  it('an extension pattern narrows rg\'s listing by file type, which never brings a file ignored by name back', async () => {
    await tree.write({ '.gitignore': 'build/\n*.gen.ts\n', 'src/api.gen.ts': '', 'src/api.gen.tsx': '' })
    expect(seen(await glob({ pattern: '*.ts' })).content.split('\n').toSorted()).toEqual(['.config/x.ts', 'src/.hidden.ts', 'src/deep/mid.ts', 'src/new.ts', 'src/old.ts'])
    expect(seen(await glob({ pattern: '**/*.tsx' })).content).toBe('src/api.gen.tsx')
  })

  it('matches a pattern without "/" against the file name at any depth', async () => {
    expect(seen(await glob({ pattern: '*.md' })).content).toBe('src/readme.md')
    expect(seen(await glob({ pattern: '.*.ts' })).content).toBe('src/.hidden.ts')
  })

  it('matches a pattern with "/" against the path relative to path; paths stay relative to the working directory', async () => {
    expect(seen(await glob({ pattern: 'src/*.ts' })).content).toBe('src/new.ts\nsrc/old.ts\nsrc/.hidden.ts')
    expect(seen(await glob({ pattern: 'deep/*.ts', path: 'src' })).content).toBe('src/deep/mid.ts')
    expect(seen(await glob({ pattern: '*.{md,txt}', path: tree.path('src') })).content).toBe('src/readme.md')
  })

  it('does not follow or list links', async () => {
    symlinkSync(tree.root, tree.path('src/loop'))
    symlinkSync(tree.path('src/readme.md'), tree.path('src/alias.md'))
    symlinkSync('self.ts', tree.path('src/self.ts'))
    expect(seen(await glob({ pattern: 'src/**/*.md' })).content).toBe('src/readme.md')
    expect(seen(await glob({ pattern: 'src/*.ts' })).content).toBe('src/new.ts\nsrc/old.ts\nsrc/.hidden.ts')
  })

  it('says when nothing matches', async () => {
    expect(seen(await glob({ pattern: '**/*.py' }))).toEqual({ isError: false, content: 'No files match "**/*.py" (searched: .).' })
  })

  it('pages with offset and names the total', async () => {
    const spec = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`many/f${String(i).padStart(3, '0')}.txt`, '']))
    await tree.write(spec)
    const lines = seen(await glob({ pattern: 'many/*.txt' })).content.split('\n')
    expect(lines).toHaveLength(201)
    // More than one page: path order, so the pages do not move when a file changes in between.
    expect(lines[200]).toBe('[Matches 1-200 of 250, in path order. Call glob with offset=200 for the next page, or use a narrower pattern or path.]')
    expect(lines.slice(0, 200)).toEqual(Object.keys(spec).slice(0, 200))
    const rest = seen(await glob({ pattern: 'many/*.txt', offset: 200 })).content.split('\n')
    expect(rest).toHaveLength(51)
    expect(rest[50]).toBe('[Matches 201-250 of 250, in path order.]')
    expect(rest.slice(0, 50)).toEqual(Object.keys(spec).slice(200))
  })

  it('F20: pages of a directory without subdirectories advise the pattern, never path', async () => {
    await tree.write(Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`flat/f${String(i).padStart(3, '0')}.txt`, ''])))
    const lines = seen(await glob({ pattern: '*.txt', path: 'flat' })).content.split('\n')
    expect(lines[200]).toBe('[Matches 1-200 of 250, in path order. Call glob with offset=200 for the next page, or use a narrower pattern.]')
  })

  it('F20: the time-limit advice names what helps glob (a subdirectory as path), not a glob parameter it does not have', async () => {
    const slow = tree.path('slow-rg')
    writeFileSync(slow, '#!/bin/sh\nexec sleep 60\n')
    chmodSync(slow, 0o755)
    const limited = createGlobTool({ ripgrepPath: slow, timeLimitMs: 300 })
    await tree.write({ 'flat/a.txt': '', 'deep/sub/b.txt': '' })
    expect(seen(await call(limited, { pattern: '*.txt', path: 'deep' }, runContext({ cwd: tree.root }))).content).toBe(
      'No files match "*.txt" (searched: deep).\n[Stopped at the 0.3 s time limit: the results are incomplete. Pass a subdirectory as path.]',
    )
    expect(seen(await call(limited, { pattern: '*.txt', path: 'flat' }, runContext({ cwd: tree.root }))).content).toBe(
      'No files match "*.txt" (searched: flat).\n[Stopped at the 0.3 s time limit: the results are incomplete. This directory alone holds more entries than can be listed in time: list part of it with bash (ls -f | head -1000).]',
    )
  })

  it('explains a missing path, a file path and an absolute pattern', async () => {
    expect(seen(await glob({ pattern: '*', path: 'nope' }))).toEqual({
      isError: true,
      content: `Not found: nope. Relative paths resolve against ${tree.root}; omit path to search there.`,
    })
    expect(seen(await glob({ pattern: '*', path: 'src/old.ts' }))).toEqual({
      isError: true,
      content: 'src/old.ts is not a directory. Pass a directory as path.',
    })
    expect(seen(await glob({ pattern: '/etc/*' }))).toEqual({
      isError: true,
      content:
        'The pattern must be relative to the search directory. Put the directory in path and the rest in pattern, for example path: "/repo/src", pattern: "**/*.ts".',
    })
  })

  it('falls back to the built-in walker when rg cannot run, and says so', async () => {
    symlinkSync('nowhere.ts', tree.path('src/broken.ts'))
    const walker = createGlobTool({ ripgrepPath: '/nonexistent/rg' })
    expect(seen(await call(walker, { pattern: 'src/*.ts' }, runContext({ cwd: tree.root }))).content).toBe(
      'src/new.ts\nsrc/old.ts\nsrc/.hidden.ts\n' +
        '[ripgrep could not run (ENOENT), so this result comes from the built-in search: it reads no ignore files (only .git and node_modules are skipped).]\n' +
        '[Skipped 1 broken symbolic link (the target does not exist).]',
    )
  })
})
