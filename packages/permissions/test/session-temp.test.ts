// The private temp directory is per session: two sessions served by one launcher (as ACP and the
// web host do) each see an empty temp directory of their own in a real sandbox, neither sees the
// other's files, and a session's directory is removed when that session ends while the other's
// stays until the launcher is disposed.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { createSandboxLauncher, type SandboxLauncher } from '../src/index.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

function sh(launcher: SandboxLauncher, repo: string, session: string, script: string): string {
  const plan = launcher.plan({ file: 'bash', args: ['-c', script], cwd: repo, env: process.env, writableRoots: [repo], session })
  return spawnSync(plan.file, [...plan.args], { env: plan.env, encoding: 'utf8' }).stdout
}

describe('the private temp directory', () => {
  it('is one per session, and goes when its session ends', async () => {
    tree = await tempTree({ 'repo/': null, 'tmp/': null })
    const tmp = tree.path('tmp')
    const repo = tree.path('repo')
    const launcher = createSandboxLauncher({ mode: 'full-auto', network: true, secretVariables: [], env: process.env, tempDir: tmp, warn: () => undefined, interactive: false })
    expect(sh(launcher, repo, 'session-a', `echo a > ${tmp}/from-a; ls ${tmp}`)).toBe('from-a\n')
    expect(sh(launcher, repo, 'session-b', `echo b > ${tmp}/from-b; ls ${tmp}`)).toBe('from-b\n')
    expect(sh(launcher, repo, 'session-a', `ls ${tmp}`)).toBe('from-a\n')
    expect(readdirSync(tmp)).toHaveLength(2)
    launcher.endSession('session-a')
    const left = readdirSync(tmp)
    expect(left).toHaveLength(1)
    expect(readdirSync(`${tmp}/${left[0] ?? ''}`)).toEqual(['from-b'])
    // A session resumed later starts with an empty directory again.
    expect(sh(launcher, repo, 'session-a', `ls ${tmp}`)).toBe('')
    launcher.dispose()
    expect(readdirSync(tmp)).toEqual([])
  })
})
