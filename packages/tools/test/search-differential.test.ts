// grep and glob against the real rg and fd on the fixture repository: the same file sets (less
// the .env files, which grep leaves out by design), the same matches for the regex dialect cases,
// and the cases rg itself defines (ignore files, hidden, .git, links, encodings, sizes).
import { execFileSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { globTool, grepTool } from '../src/index.ts'
import { call, runContext, seen } from './helpers.ts'
import { bundledRg, linesOf, searchFixture, type SearchFixture } from './search-fixture.ts'

let fixture: SearchFixture
const saved = { HOME: process.env['HOME'], XDG_CONFIG_HOME: process.env['XDG_CONFIG_HOME'] }
beforeAll(() => {
  fixture = searchFixture()
  // rg (ours and the oracle) finds the global excludes file under HOME.
  process.env['HOME'] = fixture.home
  delete process.env['XDG_CONFIG_HOME']
})
afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
  fixture.dispose()
})

const grep = async (args: unknown): Promise<string> => seen(await call(grepTool, args, runContext({ cwd: fixture.root }))).content
const glob = async (args: unknown): Promise<string> => seen(await call(globTool, args, runContext({ cwd: fixture.root }))).content
const pathsOf = (content: string): string[] => content.split('\n').filter((line) => !line.startsWith('[')).toSorted()
const rg = (...args: string[]): string[] => linesOf(bundledRg(), ['--hidden', '--glob', '!.git', ...args], fixture.root)
const isEnv = (path: string): boolean => /(^|\/)\.env(\.local)?$/.test(path)

function fdBinary(): string | undefined {
  for (const name of ['fdfind', 'fd']) {
    try {
      execFileSync(name, ['--version'], { stdio: 'ignore' })
      return name
    } catch {
      // Not installed under this name; try the next (Debian calls it fdfind).
    }
  }
  return undefined
}

describe('grep against rg', () => {
  it('lists the same files as rg -l --hidden -g !.git, less .env files', async () => {
    const ours = pathsOf(await grep({ pattern: 'needle', case_insensitive: true }))
    const theirs = rg('-l', '-i', 'needle')
    expect(ours).toEqual(theirs.filter((path) => !isEnv(path)))
    // What that means, case by case (rg's answers, now ours):
    expect(ours).toEqual(
      expect.arrayContaining(['important.log', 'sub/keep.tmp', '.github/workflows/ci.yml', '.hidden_dir/h.ts', 'node_modules/left-pad/index.js', 'latin1.txt', 'utf16.txt', 'big.js', 'long.min.js', 'nested_repo/inner.txt', '.env.example']),
    )
    for (const absent of ['build/out.js', 'dist/bundle.js', 'logs/app.log', 'scratch.tmp', 'sub/secret.txt', 'excluded_by_info.txt', 'globally_ignored.txt', 'rg_dot_ignore.txt', 'nested_repo/inner_ignored.txt', 'bin.dat', 'link_to_file.ts', 'link_outside.ts', '.env', '.env.local']) {
      expect(ours).not.toContain(absent)
    }
    expect(ours.some((path) => path.startsWith('.git/'))).toBe(false)
  })

  it('says that .env files were left out, and searches one named as path', async () => {
    expect(await grep({ pattern: 'NEEDLE=', glob: '.env*' })).toBe(".env.example\n[Skipped 2 .env files: .env files usually hold secrets; name one as path to search it.]")
    expect(await grep({ pattern: 'NEEDLE=', path: '.env', output_mode: 'content' })).toBe('.env:1:NEEDLE=hidden env')
  })

  it.each([
    ['(?i)needle in', ['-i', 'needle in']],
    ['[[:digit:]]+', ['[[:digit:]]+']],
    ['needle(?= in)', ['--engine', 'auto', 'needle(?= in)']],
    ['(?<!a )needle alone', ['--engine', 'auto', '(?<!a )needle alone']],
    ['\\bneedle\\b', ['\\bneedle\\b']],
  ])('matches %s as rg does', async (pattern, rgArgs) => {
    expect(pathsOf(await grep({ pattern }))).toEqual(rg('-l', ...rgArgs).filter((path) => !isEnv(path)))
    expect(pathsOf(await grep({ pattern })).length).toBeGreaterThan(0)
  })

  it('matches across lines with multiline, as rg -U', async () => {
    expect(await grep({ pattern: 'foo\\(\\) \\{\\n\\s*return', output_mode: 'content' })).toBe('No matches for /foo\\(\\) \\{\\n\\s*return/ (searched: .).')
    expect(await grep({ pattern: 'foo\\(\\) \\{\\n\\s*return', multiline: true, output_mode: 'content' })).toBe(
      'src/util/multi.ts:1:function foo() {\nsrc/util/multi.ts:2:  return needle',
    )
    expect(rg('-l', '-U', 'foo\\(\\) \\{\\n\\s*return')).toEqual(['src/util/multi.ts'])
  })

  it('shows Latin-1 and UTF-16 lines decoded, and a window around a match on a long line', async () => {
    expect(await grep({ pattern: 'needle', path: 'latin1.txt', output_mode: 'content' })).toBe('latin1.txt:1:café needle')
    expect(await grep({ pattern: 'needle', path: 'utf16.txt', output_mode: 'content' })).toBe('utf16.txt:1:utf16 needle')
    expect(await grep({ pattern: 'needle', path: 'long.min.js', output_mode: 'content' })).toBe(
      `long.min.js:1:…${'x'.repeat(100)}needle${'y'.repeat(194)}… [characters 4901-5200 of 10009]`,
    )
    expect(await grep({ pattern: 'at the end', path: 'big.js', output_mode: 'content' })).toBe("big.js:40001:const needle = 'at the end'")
  })

  it('anchors $ before \\r\\n', async () => {
    expect(await grep({ pattern: 'needle$', path: 'src/crlf.ts', output_mode: 'content' })).toBe('src/crlf.ts:1:crlf needle')
  })

  it('gives paths relative to the working directory when path is a subfolder', async () => {
    expect(pathsOf(await grep({ pattern: 'needle', path: 'sub' }))).toEqual(['sub/deep/file.ts', 'sub/keep.tmp'])
    expect(pathsOf(await grep({ pattern: 'needle', path: fixture.root + '/sub' }))).toEqual(['sub/deep/file.ts', 'sub/keep.tmp'])
  })

  it('returns from a catastrophic pattern: linear engine, and PCRE2 stops at its limit with a note', async () => {
    expect(await grep({ pattern: '(a+)+$', path: 'redos.txt' })).toBe('No matches for /(a+)+$/ (searched: redos.txt).')
    const pcre = await grep({ pattern: '(?=a)(a+)+$', path: 'redos.txt' })
    expect(pcre).toContain("could not be fully searched: the pattern hit the regex engine's backtracking limit")
  })

  it('does not follow links, in or out of the repository', async () => {
    expect(await grep({ pattern: 'outside the repository' })).toBe('No matches for /outside the repository/ (searched: .).')
    expect(rg('-l', 'outside the repository')).toEqual([])
    expect(pathsOf(await grep({ pattern: 'export const needle' }))).toEqual(['src/a.ts'])
  })
})

describe('glob against fd and rg --files', () => {
  const fd = fdBinary()
  it.skipIf(fd === undefined).each(['*.ts', '*.md', '*.yml', '*.log', '*.tmp', '*.txt'])('lists what fd -H -E .git -t f -g %s lists', async (pattern) => {
    const theirs = linesOf(fd ?? 'fd', ['-H', '-E', '.git', '-t', 'f', '-g', pattern], fixture.root).map((path) => path.replace(/^\.\//, ''))
    expect(pathsOf(await glob({ pattern }))).toEqual(theirs)
  })

  it('matches a pattern with "/" against the path relative to path, like rg --files filtered', async () => {
    expect(pathsOf(await glob({ pattern: 'src/**/*.ts' }))).toEqual(rg('--files').filter((path) => path.startsWith('src/') && path.endsWith('.ts')))
    expect(pathsOf(await glob({ pattern: '**/*.ts', path: 'sub' }))).toEqual(['sub/deep/file.ts'])
    expect(pathsOf(await glob({ pattern: 'deep/*.ts', path: 'sub' }))).toEqual(['sub/deep/file.ts'])
  })

  it('lists hidden files and .env files but never .git, and no links', async () => {
    const all = pathsOf(await glob({ pattern: '**' }))
    expect(all).toEqual(rg('--files'))
    expect(all).toEqual(expect.arrayContaining(['.env', '.github/workflows/ci.yml', '.gitignore']))
    expect(all.some((path) => path.startsWith('.git/') || path.startsWith('link'))).toBe(false)
  })
})
