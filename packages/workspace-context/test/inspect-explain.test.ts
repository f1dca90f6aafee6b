// `inspectContext` / `formatContextReport` (dsh context) and `explainPath` / `formatExplanation`
// (dsh context why PATH) on the in-memory filesystem.
import { describe, expect, it } from 'vitest'
import { explainPath, formatExplanation } from '../src/explain.ts'
import { formatContextReport } from '../src/format-report.ts'
import { inspectContext } from '../src/inspect.ts'
import { REPO } from './support/fixtures.ts'
import { FakeFileSystem } from './support/fake-fs.ts'

const environment = { env: {}, home: '/home/user' }
const config = { maxBytes: 65536, dshHome: '/home/user/.dsh' }

describe('inspectContext', () => {
  it('reports the project root, the baseline and every candidate with its state', async () => {
    const fs = new FakeFileSystem({ ...REPO, '/repo/CLAUDE.md': 'shadowed', '/secret.txt': 'S' })
    fs.symlink('/repo/pkg/CLAUDE.local.md', '/secret.txt')
    fs.write('/repo/pkg/AGENTS.local.md', new Uint8Array([0xff, 0x00]))
    const report = await inspectContext({ cwd: '/repo/pkg', config, fs, environment })
    expect(report).toMatchObject({ cwd: '/repo/pkg', projectRoot: '/repo', projectRootVia: 'marker', projectRootMarker: '.git', enabled: true })
    const states = Object.fromEntries(report.candidates.map((c) => [c.path, c.state]))
    expect(states).toMatchObject({
      '~/.dsh/AGENTS.md': 'loaded',
      'AGENTS.md': 'loaded',
      'CLAUDE.md': 'shadowed',
      'AGENTS.local.md': 'missing',
      'pkg/AGENTS.md': 'loaded',
      'pkg/AGENTS.local.md': 'not-utf8',
      'pkg/CLAUDE.local.md': 'escaping-link',
    })
    expect(report.baseline.text).toContain('Instructions from: pkg/AGENTS.md')
    expect(report.baseline.files.map((c) => c.path)).toEqual(['~/.dsh/AGENTS.md', 'AGENTS.md', 'pkg/AGENTS.md'])
    expect(JSON.parse(JSON.stringify(report))).toEqual(report)
    const text = formatContextReport(report)
    expect(text).toContain('Project root: /repo (marker .git)')
    expect(text).toContain('CLAUDE.md: shadowed')
    expect(text).toContain('pkg/CLAUDE.local.md: escaping link (not loaded)')
    expect(text).toContain(report.baseline.text)
  })

  it('reports budget omissions and truncation', async () => {
    const fs = new FakeFileSystem({ ...REPO, '/repo/AGENTS.md': 'r'.repeat(3000), '/repo/pkg/AGENTS.md': 'p'.repeat(3000) })
    const report = await inspectContext({ cwd: '/repo/pkg', config: { ...config, maxBytes: 1500 }, fs, environment })
    const byPath = new Map(report.candidates.map((c) => [c.path, c]))
    expect(byPath.get('AGENTS.md')?.state).toBe('omitted-by-budget')
    expect(byPath.get('~/.dsh/AGENTS.md')?.state).toBe('omitted-by-budget')
    expect(byPath.get('pkg/AGENTS.md')).toMatchObject({ state: 'truncated', bytes: 3000 })
    expect(byPath.get('pkg/AGENTS.md')?.includedBytes).toBeGreaterThan(0)
    expect(report.baseline.bytes).toBeLessThanOrEqual(1500)
    expect(formatContextReport(report)).toMatch(/pkg\/AGENTS\.md: truncated by budget \(\d+ of 3000 bytes\)/u)
  })

  it('under the all policy, reports an escaping link and loads the next candidate of its directory', async () => {
    const fs = new FakeFileSystem({ '/repo/.git/HEAD': 'ref', '/repo/CLAUDE.md': 'Claude rules.\n', '/outside/AGENTS.md': 'Outside.' })
    fs.symlink('/repo/AGENTS.md', '../outside/AGENTS.md')
    const report = await inspectContext({ cwd: '/repo', config: { ...config, candidatePolicy: 'all' }, fs, environment })
    const byPath = new Map(report.candidates.map((c) => [c.path, c]))
    expect(byPath.get('AGENTS.md')).toMatchObject({ state: 'escaping-link', detail: 'link target outside the trusted roots: /outside/AGENTS.md' })
    expect(byPath.get('CLAUDE.md')).toMatchObject({ state: 'loaded', bytes: 14 })
    expect(report.baseline.files.map((c) => c.path)).toEqual(['CLAUDE.md'])
    const text = formatContextReport(report)
    expect(text).not.toContain('waiting for')
    expect(text).toContain('Instructions from: CLAUDE.md')
  })

  it('names the user-global file, lists the names a directory without instruction files could use, and keeps scope keys out of the JSON', async () => {
    const fs = new FakeFileSystem({ ...REPO, '/repo/pkg/deep/x.ts': '' })
    const report = await inspectContext({ cwd: '/repo/pkg/deep', config, fs, environment })
    const text = formatContextReport(report)
    expect(text).toContain('User-global file: /home/user/.dsh/AGENTS.md (shown to the model as ~/.dsh/AGENTS.md)')
    expect(text).not.toContain('Home:')
    expect(text).toContain('  pkg/deep:\n    no instruction file; would read AGENTS.override.md, AGENTS.md, CLAUDE.md (the first that exists), then the first of AGENTS.local.md, CLAUDE.local.md as a local overlay')
    const json = JSON.stringify(report)
    expect(json).not.toContain('\\u0000')
    expect(json).not.toContain('user-global\\u0000')
    expect(report.baseline.files).toEqual([
      expect.objectContaining({ root: '/home/user/.dsh', dir: '.', file: 'AGENTS.md', path: '~/.dsh/AGENTS.md' }),
      expect.objectContaining({ root: '/repo', dir: '.', file: 'AGENTS.md', path: 'AGENTS.md' }),
      expect.objectContaining({ root: '/repo', dir: 'pkg', file: 'AGENTS.md', path: 'pkg/AGENTS.md' }),
    ])
    expect(report.directories.map((d) => [d.kind, d.dir, d.found])).toEqual([
      ['user-global', '.', true],
      ['project', '.', true],
      ['project', 'pkg', true],
      ['project', 'pkg/deep', false],
    ])
    expect(report.candidates.every((c) => typeof c.root === 'string' && typeof c.dir === 'string' && typeof c.file === 'string')).toBe(true)
  })

  it('under the all policy, says every candidate name would be read', async () => {
    const report = await inspectContext({ cwd: '/repo/other', config: { ...config, candidatePolicy: 'all' }, fs: new FakeFileSystem(REPO), environment })
    expect(formatContextReport(report)).toContain('  other:\n    no instruction file; would read AGENTS.override.md, AGENTS.md, CLAUDE.md, then AGENTS.local.md, CLAUDE.local.md as a local overlay')
  })

  it('says so when loading is disabled', async () => {
    const report = await inspectContext({ cwd: '/repo', config: { ...config, maxBytes: 0 }, fs: new FakeFileSystem(REPO), environment })
    expect(report.enabled).toBe(false)
    expect(formatContextReport(report)).toContain('disabled')
  })
})

describe('explainPath', () => {
  it('lists the files that apply to a path, broad to specific, with reasons and delivery', async () => {
    const fs = new FakeFileSystem({ ...REPO, '/repo/pkg/deep/AGENTS.local.md': 'Local deep.' })
    const explanation = await explainPath({ cwd: '/repo', path: 'pkg/deep/b.ts', config, fs, environment })
    expect(explanation.files.map((f) => [f.path, f.delivery])).toEqual([
      ['~/.dsh/AGENTS.md', 'baseline'],
      ['AGENTS.md', 'baseline'],
      ['pkg/AGENTS.md', 'on-first-touch'],
      ['pkg/deep/AGENTS.local.md', 'on-first-touch'],
    ])
    expect(explanation.files[3]?.reason).toContain('local overlay')
    const text = formatExplanation(explanation)
    expect(text).toContain('1. ~/.dsh/AGENTS.md')
    expect(text).toContain('4. pkg/deep/AGENTS.local.md')
  })

  it('marks files outside the working directory as not loaded automatically', async () => {
    const fs = new FakeFileSystem({ ...REPO, '/repo/other/AGENTS.md': 'Other.' })
    const explanation = await explainPath({ cwd: '/repo/pkg', path: '/repo/other/c.ts', config, fs, environment })
    expect(explanation.files.map((f) => [f.path, f.delivery])).toEqual([
      ['~/.dsh/AGENTS.md', 'baseline'],
      ['AGENTS.md', 'baseline'],
      ['other/AGENTS.md', 'not-automatic'],
    ])
  })

  it('says first that a path does not exist, and names the directory chain it would use', async () => {
    const explanation = await explainPath({ cwd: '/repo', path: 'pkg/new/file.ts', config, fs: new FakeFileSystem(REPO), environment })
    expect(explanation).toMatchObject({ target: '/repo/pkg/new/file.ts', status: 'missing', chain: ['.', 'pkg', 'pkg/new'] })
    const [first, second] = formatExplanation(explanation).split('\n')
    expect(first).toBe('/repo/pkg/new/file.ts does not exist; a file there would get the instruction files of its directories (. → pkg → pkg/new)')
    expect(second).toBe('(project root /repo; more specific files are listed later and take precedence):')
    expect(explanation.files.map((f) => f.path)).toEqual(['~/.dsh/AGENTS.md', 'AGENTS.md', 'pkg/AGENTS.md'])
  })

  it('resolves a relative path against the working directory and shows the absolute path analysed', async () => {
    const explanation = await explainPath({ cwd: '/repo/pkg', path: 'deep/b.ts', config, fs: new FakeFileSystem(REPO), environment })
    expect(explanation).toMatchObject({ target: '/repo/pkg/deep/b.ts', status: 'exists' })
    expect(formatExplanation(explanation).split('\n')[0]).toBe('Instruction files that apply to /repo/pkg/deep/b.ts')
  })

  it('only user-global instructions apply outside the project', async () => {
    const explanation = await explainPath({ cwd: '/repo', path: '/elsewhere/x.ts', config, fs: new FakeFileSystem(REPO), environment })
    expect(explanation.insideProject).toBe(false)
    expect(explanation.files.map((f) => f.path)).toEqual(['~/.dsh/AGENTS.md'])
    expect(formatExplanation(explanation)).toContain('outside the project root')
  })
})

/** Control characters other than newline and tab (what a terminal would act on). */
function controls(text: string): number[] {
  const found: number[] = []
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code !== 0x0a && code !== 0x09 && (code < 0x20 || (code >= 0x7f && code <= 0x9f))) found.push(code)
  }
  return found
}

describe('terminal safety of the human-readable output', () => {
  const ESC = '\u001b]0;PWNED\u0007 \u001b[2J'
  const dir = `/repo/e${ESC}`

  it('shows control characters of file content and names as visible placeholders; JSON stays exact', async () => {
    const fs = new FakeFileSystem({ ...REPO, '/repo/AGENTS.md': `Rules ${ESC}\r\n\tindented\u009b31m\u007f\n`, [`${dir}/AGENTS.md`]: 'Nested.', [`${dir}/a.ts`]: '', [`/outside${ESC}`]: 'x' })
    fs.symlink(`${dir}/CLAUDE.local.md`, `/outside${ESC}`)
    const report = await inspectContext({ cwd: dir, config, fs, environment })
    const text = formatContextReport(report)
    expect(controls(text)).toEqual([])
    expect(text).toContain('Rules ^[]0;PWNED^G ^[[2J^M\n\tindented\\u009b31m^?\n')
    expect(text).toContain('Working directory: /repo/e^[]0;PWNED^G ^[[2J')
    expect(text).toContain('  e^[]0;PWNED^G ^[[2J/AGENTS.md: loaded')
    expect(text).toContain('link target outside the trusted roots: /outside^[]0;PWNED^G ^[[2J')
    expect(JSON.stringify(report)).toContain('\\u001b]0;PWNED\\u0007 \\u001b[2J')
    expect(report.baseline.text).toContain(ESC)

    const explanation = await explainPath({ path: `${dir}/a.ts`, cwd: '/repo', config, fs, environment })
    const why = formatExplanation(explanation)
    expect(controls(why)).toEqual([])
    expect(why).toContain('Instruction files that apply to /repo/e^[]0;PWNED^G ^[[2J/a.ts')
    expect(why).toContain('e^[]0;PWNED^G ^[[2J/AGENTS.md — instructions for `e^[]0;PWNED^G ^[[2J`')
    expect(explanation.files.map((f) => f.path)).toContain(`e${ESC}/AGENTS.md`)
  })
})
