// The fixture repository of the search tests: a git repository in a temp directory with every
// case issue 22 lists (ignore files with negations at several levels, git excludes, a global
// excludes file under a temp HOME, .ignore, hidden files, .git, tracked node_modules, links in
// and out, Latin-1, UTF-16, binary, a > 1 MiB file, a very long line, multiline, CRLF, a nested
// repository), plus the bundled rg for differential checks.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createRequire } from 'node:module'

/** The fixture: its root, a file outside it, and the temp HOME whose git ignore lists `globally_ignored.txt`. */
export interface SearchFixture {
  readonly root: string
  readonly home: string
  readonly outside: string
  dispose(): void
}

/** The rg that `@vscode/ripgrep` installs (the oracle of the differential tests). */
export function bundledRg(): string {
  return createRequire(import.meta.url).resolve(`@vscode/ripgrep-${process.platform}-${process.arch}/bin/rg`)
}

const TEXT: Readonly<Record<string, string | Buffer>> = {
  '.gitignore': '*.log\nbuild/\n/dist\n*.tmp\n!important.log\n',
  'sub/.gitignore': 'secret.txt\n!keep.tmp\n',
  '.ignore': 'rg_dot_ignore.txt\n',
  'src/a.ts': 'export const needle = 1\n',
  'src/util/multi.ts': 'function foo() {\n  return needle\n}\n',
  'src/digits.ts': 'const needle = 12345\n',
  'src/look.ts': 'a needle in a haystack\nneedle alone\n',
  'src/crlf.ts': 'crlf needle\r\nsecond\r\n',
  'src/Upper.ts': 'NEEDLE in capitals\n',
  'build/out.js': 'needle in build\n',
  'dist/bundle.js': 'needle in dist\n',
  'logs/app.log': 'needle in a log\n',
  'important.log': 'needle kept by negation\n',
  'scratch.tmp': 'needle in tmp\n',
  'sub/keep.tmp': 'needle kept by nested negation\n',
  'sub/secret.txt': 'needle nested-ignored\n',
  'sub/deep/file.ts': 'needle deep\n',
  'excluded_by_info.txt': 'needle info exclude\n',
  'globally_ignored.txt': 'needle global\n',
  'rg_dot_ignore.txt': 'needle dot ignore\n',
  '.env': 'NEEDLE=hidden env\n',
  '.env.local': 'NEEDLE=local env\n',
  '.env.example': 'NEEDLE=example\n',
  '.github/workflows/ci.yml': 'name: needle ci\n',
  '.hidden_dir/h.ts': 'needle hidden\n',
  'node_modules/left-pad/index.js': 'needle in tracked node_modules\n',
  'docs/readme.md': '# needle docs\n',
  'docs/guide/intro.md': 'intro\n',
  'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x0a]),
  'utf16.txt': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('utf16 needle\n', 'utf16le')]),
  'bin.dat': Buffer.from([0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x00, 0x01, 0x02]),
  'big.js': `${'// filler line of a large file\n'.repeat(40_000)}const needle = 'at the end'\n`,
  'long.min.js': `${'x'.repeat(5000)}needle${'y'.repeat(5003)}\n`,
  'nested_repo/inner.txt': 'needle inner\n',
  'nested_repo/.gitignore': 'inner_ignored.txt\n',
  'nested_repo/inner_ignored.txt': 'needle inner ignored\n',
  'redos.txt': `${'a'.repeat(29)}!\n`,
}

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, stdio: 'ignore' })
}

/** Builds the fixture; `dispose` removes it. */
export function searchFixture(): SearchFixture {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'dsh-search-')))
  const root = join(base, 'repo')
  const home = join(base, 'home')
  const outside = join(base, 'outside.ts')
  for (const [relative, content] of Object.entries(TEXT)) {
    mkdirSync(dirname(join(root, relative)), { recursive: true })
    writeFileSync(join(root, relative), content)
  }
  writeFileSync(outside, 'needle outside the repository\n')
  git(root, 'init', '-q')
  git(join(root, 'nested_repo'), 'init', '-q')
  writeFileSync(join(root, '.git/info/exclude'), 'excluded_by_info.txt\n')
  mkdirSync(join(home, '.config/git'), { recursive: true })
  writeFileSync(join(home, '.config/git/ignore'), 'globally_ignored.txt\n')
  symlinkSync('src/a.ts', join(root, 'link_to_file.ts'))
  symlinkSync(outside, join(root, 'link_outside.ts'))
  symlinkSync('nowhere.ts', join(root, 'dangling.ts'))
  symlinkSync('src', join(root, 'link_to_dir'))
  return { root, home, outside, dispose: () => rmSync(base, { recursive: true, force: true }) }
}

/** Runs `binary` with `args` in `cwd`; stdout lines, sorted (exit 1, "nothing found", gives []). */
export function linesOf(binary: string, args: readonly string[], cwd: string): string[] {
  try {
    return execFileSync(binary, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\n')
      .filter((line) => line !== '')
      .toSorted()
  } catch (error) {
    // rg and fd exit 1 when nothing matched; that is an empty answer, not a failure.
    if (typeof error === 'object' && error !== null && 'status' in error && error.status === 1) return []
    throw error
  }
}
