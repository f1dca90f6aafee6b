// `@` completion over a real git repository with the bundled ripgrep: fuzzy matches across the
// project (ignored files, `.git` and `node_modules` left out), the named directory's entries first
// (ignored ones included), quoted paths with spaces, a listing reused while fresh and taken again
// after; and the ranking's rules as properties.
import * as fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { mentionSuggestions } from '../src/mention-suggestions.ts'
import { FileIndex, FRESH_MS } from '../src/file-index.ts'
import { fuzzyScore, rankPaths } from '../src/fuzzy-rank.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

const values = (items: readonly { value: string }[]): string[] => items.map((item) => item.value)

describe('@ completion', () => {
  it('finds project files fuzzily, leaves out ignored ones and .git, and lists an ignored directory when it is typed', async () => {
    tree = await tempTree({
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.gitignore': 'dist/\n',
      'src/server.ts': '',
      'src/services/user-service.ts': '',
      'scripts/reverse-ts.md': '',
      'docs/a b.md': '',
      'dist/server.js': '',
      'node_modules/pkg/server.js': '',
    })
    const index = new FileIndex({ cwd: tree.root })
    const found = values(await mentionSuggestions(tree.root, '@srvts', index))
    expect(found[0]).toBe('@src/server.ts')
    expect(found).toContain('@scripts/reverse-ts.md')
    expect(found.some((value) => value.includes('dist/') || value.includes('.git/') || value.includes('node_modules'))).toBe(false)
    expect(values(await mentionSuggestions(tree.root, '@usersvc', index))[0]).toBe('@src/services/user-service.ts')
    expect(values(await mentionSuggestions(tree.root, '@servi', index)).slice(0, 1)).toEqual(['@src/services/'])
    expect(values(await mentionSuggestions(tree.root, '@dist/', index))[0]).toBe('@dist/server.js')
    expect(values(await mentionSuggestions(tree.root, '@ab', index))).toContain('@"docs/a b.md"')
    const item = (await mentionSuggestions(tree.root, '@userserv', index))[0]
    expect(item).toEqual({ value: '@src/services/user-service.ts', label: 'user-service.ts', description: 'src/services/' })
  })

  it('reuses a fresh listing and takes a new one once it is stale; without ripgrep it lists directories only', async () => {
    tree = await tempTree({ '.git/HEAD': '', 'a.ts': '' })
    let now = 0
    const index = new FileIndex({ cwd: tree.root, now: () => now })
    expect(await index.paths()).toEqual(['a.ts'])
    await tree.write({ 'b.ts': '' })
    expect(await index.paths()).toEqual(['a.ts'])
    now += FRESH_MS
    expect([...(await index.paths())].toSorted()).toEqual(['a.ts', 'b.ts'])
    const blind = new FileIndex({ cwd: tree.root, binary: undefined })
    expect(await blind.paths()).toEqual([])
    expect(values(await mentionSuggestions(tree.root, '@b', blind))).toEqual(['@b.ts'])
  })
})

describe('fuzzy ranking', () => {
  const pathArb = fc.array(fc.constantFrom('src', 'lib', 'a', 'server', 'user-service', 'index.ts', 'x_y', 'Foo'), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'))

  it('matches exactly the paths that hold the query in order, case aside', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 4 }).map((text) => text.toLowerCase()), pathArb, (query, path) => {
        let at = 0
        const lower = path.toLowerCase()
        const inOrder = query.split('').every((char) => {
          at = lower.indexOf(char, at) + 1
          return at > 0
        })
        expect(fuzzyScore(query, path) !== undefined).toBe(inOrder)
      }),
      { numRuns: 2000 },
    )
  })

  it('ranks a whole file name above a scattered match, and a shorter path above a longer one of the same match', () => {
    fc.assert(
      fc.property(fc.array(pathArb, { maxLength: 20 }), (noise) => {
        const ranked = rankPaths('index', [...noise, 'deep/nested/dir/index.ts', 'i/n/d/e/x.md'], 50)
        expect(ranked.indexOf('deep/nested/dir/index.ts')).toBeLessThan(ranked.indexOf('i/n/d/e/x.md'))
      }),
    )
    expect(rankPaths('app', ['src/lib/app.ts', 'app.ts'], 2)).toEqual(['app.ts', 'src/lib/app.ts'])
    expect(rankPaths('', ['b', 'a'], 5)).toEqual(['a', 'b'])
  })
})

describe('a typed directory', () => {
  it('offers its entries and not itself again', async () => {
    tree = await tempTree({ '.git/HEAD': '', 'src/services/user-service.ts': '' })
    expect(values(await mentionSuggestions(tree.root, '@src/services/', new FileIndex({ cwd: tree.root })))).toEqual(['@src/services/user-service.ts'])
  })
})
