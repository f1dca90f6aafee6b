// `dsh checkpoints prune` through the built binary: recent checkpoints stay, those of a session
// whose log was deleted go, an age of 0s removes the rest, and a bad age is a usage error.
import { existsSync, rmSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { runDsh, sessionIdOf, writeScript } from './run-dsh.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

describe('dsh checkpoints prune', () => {
  it('keeps recent checkpoints, removes those of deleted sessions and older ones', async () => {
    tree = await tempTree({ 'repo/a.txt': 'a\n', 'scripts/': null })
    const dsh = (args: readonly string[]) => runDsh(['--dsh-home', tree?.path('home') ?? '', ...args], { cwd: tree?.path('repo') ?? '' })
    const script = writeScript(tree.path('scripts'), 'write.json', { responses: [{ toolCalls: [{ name: 'write', arguments: { file_path: 'a.txt', content: 'b\n' } }] }, { text: 'done' }] })
    const ids: string[] = []
    for (let index = 0; index < 2; index++) {
      const run = await dsh(['run', '--model', `scripted:${script}`, 'write'])
      expect(run.code, run.stderr).toBe(0)
      ids.push(sessionIdOf(run.stderr))
    }
    const [first = '', second = ''] = ids
    expect(await dsh(['checkpoints', 'prune'])).toMatchObject({ code: 0, stdout: '0 removed, 2 kept\n' })
    rmSync(tree.path(`home/sessions/${first}.jsonl`))
    expect(await dsh(['checkpoints', 'prune', '--older-than', '30d'])).toMatchObject({ code: 0, stdout: `removed checkpoints of ${first} (session gone)\n1 removed, 1 kept\n` })
    expect(existsSync(tree.path(`home/checkpoints/${first}`))).toBe(false)
    const bad = await dsh(['checkpoints', 'prune', '--older-than', 'soon'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--older-than expects an age like 30d, 12h or 90m, not "soon"')
    expect(existsSync(tree.path(`home/checkpoints/${second}`))).toBe(true)
  })
})
