// glob tool: matching rules, newest-first order, skipped directories, links, caps (golden texts).
import { symlinkSync, utimesSync } from 'node:fs'
import { tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { globTool } from '../src/index.ts'
import { call, runContext, seen } from './helpers.ts'

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({
    'src/old.ts': '',
    'src/new.ts': '',
    'src/deep/mid.ts': '',
    'src/readme.md': '',
    'src/.hidden.ts': '',
    '.config/x.ts': '',
    'node_modules/pkg/index.ts': '',
    '.git/hooks/h.ts': '',
  })
  const at = (relative: string, seconds: number) => utimesSync(tree.path(relative), seconds, seconds)
  at('src/old.ts', 1_000_000)
  at('src/deep/mid.ts', 2_000_000)
  at('src/new.ts', 3_000_000)
})
afterEach(async () => {
  await tree.dispose()
})

const glob = (args: unknown) => call(globTool, args, runContext({ cwd: tree.root }))

describe('glob', () => {
  it('lists matches newest first, skipping dot files, .git and node_modules', async () => {
    expect(seen(await glob({ pattern: '**/*.ts' }))).toEqual({
      isError: false,
      content: 'src/new.ts\nsrc/deep/mid.ts\nsrc/old.ts',
    })
  })

  it('matches dot names when the pattern spells the dot', async () => {
    expect(seen(await glob({ pattern: '.config/*.ts' })).content).toBe('.config/x.ts')
    expect(seen(await glob({ pattern: 'src/.*.ts' })).content).toBe('src/.hidden.ts')
  })

  it('searches relative to path; "*" does not cross "/"', async () => {
    expect(seen(await glob({ pattern: '*.ts', path: 'src' })).content).toBe('new.ts\nold.ts')
    expect(seen(await glob({ pattern: '*.{md,txt}', path: tree.path('src') })).content).toBe('readme.md')
  })

  it('does not follow linked directories (no loops) but lists file links', async () => {
    symlinkSync(tree.root, tree.path('src/loop'))
    symlinkSync(tree.path('src/readme.md'), tree.path('src/alias.md'))
    expect(seen(await glob({ pattern: 'src/**/*.md' })).content).toBe('src/alias.md\nsrc/readme.md')
  })

  it('skips a link that loops back on itself instead of failing, and says so', async () => {
    symlinkSync('self.ts', tree.path('src/self.ts'))
    symlinkSync('ping.ts', tree.path('src/pong.ts'))
    symlinkSync('pong.ts', tree.path('src/ping.ts'))
    expect(seen(await glob({ pattern: 'src/*.ts' }))).toEqual({
      isError: false,
      content: 'src/new.ts\nsrc/old.ts\n[Skipped 3 symbolic links that loop (they never reach a file).]',
    })
  })

  it('says when nothing matches', async () => {
    expect(seen(await glob({ pattern: '**/*.py' }))).toEqual({ isError: false, content: 'No files match "**/*.py" (searched: .).' })
  })

  it('caps at 200 with a note', async () => {
    const spec = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`many/f${String(i).padStart(3, '0')}.txt`, '']))
    await tree.write(spec)
    const lines = seen(await glob({ pattern: 'many/*.txt' })).content.split('\n')
    expect(lines).toHaveLength(201)
    expect(lines[200]).toBe('[Showing 200 of 250 matches, newest first. Use a narrower pattern or path to see the rest.]')
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
})
