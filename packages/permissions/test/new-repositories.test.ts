// Which config keys make git run a program, and what counts as a plant in a new git directory:
// git's own sample hooks and the config of a plain `git init` are none.
import { execFileSync } from 'node:child_process'
import { chmodSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { configKeys, plantIn, runsProgram } from '../src/new-repositories.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

describe('new repositories', () => {
  it('reads config keys with sections, subsections, comments and a key on the header line', () => {
    const text = '[core]\n\trepositoryformatversion = 0\n\tfsmonitor = x\n; note\n# note\n[filter "lfs"]\n\tsmudge = git-lfs smudge\n[alias] st = !sh\n[remote "origin"]\n\turl = ../up\n'
    expect(configKeys(text)).toEqual(['core.repositoryformatversion', 'core.fsmonitor', 'filter.*.smudge', 'alias.st', 'remote.*.url'])
    expect(configKeys(text).filter(runsProgram)).toEqual(['core.fsmonitor', 'filter.*.smudge', 'alias.st'])
    expect(runsProgram('includeif.*.path')).toBe(true)
    expect(runsProgram('core.bare')).toBe(false)
  })

  it('finds nothing in a plain git init, a hook that is not a sample, and a config key git runs', async () => {
    tree = await tempTree({ 'a/': null })
    const repo = tree.path('a')
    execFileSync('git', ['init', '-q', repo])
    expect(plantIn(`${repo}/.git`)).toBeUndefined()
    writeFileSync(`${repo}/.git/hooks/pre-push`, '#!/bin/sh\n')
    chmodSync(`${repo}/.git/hooks/pre-push`, 0o755)
    expect(plantIn(`${repo}/.git`)).toBe('hook pre-push')
    execFileSync('rm', [`${repo}/.git/hooks/pre-push`])
    execFileSync('git', ['-C', repo, 'config', 'core.sshCommand', 'sh -c x'])
    expect(plantIn(`${repo}/.git`)).toBe('config key core.sshcommand')
  })
})
