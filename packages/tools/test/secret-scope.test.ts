// The secret check of grep and glob is scoped to the search root: with a secret location below
// the root every listed file is checked and the secret one left out; when the host says no secret
// location lies below the root, no file is checked (tens of thousands of listed paths) and the
// answer is the same as without a check.
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { createGlobTool, createGrepTool } from '../src/index.ts'
import { call, runContext, seen } from './helpers.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

describe('secret check scope', () => {
  it('checks each file only when a secret location can lie below the root', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'repo/src/a.ts': 'token\n', 'repo/src/b.ts': 'token\n', 'repo/keys/k.ts': 'token\n' })
    const t = tree
    const secret = t.path('repo/keys')
    let checked = 0
    const isSecretPath = (path: string): boolean => {
      checked += 1
      return path === secret || path.startsWith(`${secret}/`)
    }
    const secretsUnder = (root: string): boolean => secret === root || secret.startsWith(`${root}/`) || root.startsWith(`${secret}/`)
    const run = runContext({ cwd: t.path('repo') })
    const glob = createGlobTool({ isSecretPath, secretsUnder })
    const grep = createGrepTool({ isSecretPath, secretsUnder })
    expect(seen(await call(glob, { pattern: '*.ts' }, run)).content.split('\n').toSorted()).toEqual(['src/a.ts', 'src/b.ts'])
    expect(seen(await call(grep, { pattern: 'token', output_mode: 'content' }, run)).content).not.toContain('keys/k.ts')
    expect(checked).toBeGreaterThanOrEqual(6)
    checked = 0
    expect(seen(await call(glob, { pattern: '*.ts', path: 'src' }, run)).content.split('\n').toSorted()).toEqual(['src/a.ts', 'src/b.ts'])
    expect(seen(await call(grep, { pattern: 'token', path: 'src' }, run)).content.split('\n').toSorted()).toEqual(['src/a.ts', 'src/b.ts'])
    expect(checked).toBe(0)
  })
})
