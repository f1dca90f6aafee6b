// `dsh run -c` / `--continue` (and `dsh -p -c`, as claude -p -c): the latest session started in
// the directory goes on, its history in the request; none there is a usage error that says so,
// and --continue with --resume is refused.
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { readRequests, runDsh, writeScript } from './run-dsh.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

describe('dsh run --continue', () => {
  it('continues the latest session of the directory; says so when there is none', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'other/': null, 'home/': null, 'scripts/': null })
    const home = tree.path('home')
    const script = writeScript(tree.path('scripts'), 'run.json', { responses: [{ text: 'first answer' }, { text: 'second answer' }, { text: 'third answer' }] })
    const log = tree.path('requests.jsonl')
    const run = (...words: string[]) => runDsh(['--dsh-home', home, ...words], { cwd: tree?.path('repo') ?? '' })
    const none = await run('run', '-c', '--model', `scripted:${script}`, 'anything')
    expect(none.code).toBe(2)
    expect(none.stderr).toContain(`dsh: --continue: no session was started in ${tree.path('repo')} yet (dsh sessions list shows the stored ones); leave out --continue to start one`)
    const first = await run('run', '--model', `scripted:${script}`, 'remember the word teal')
    expect(first.code, first.stderr).toBe(0)
    const id = /session: (\S+)/.exec(first.stderr)?.[1]
    const second = await run('-p', '-c', '--model', `scripted:${script}`, '--request-log', log, 'which word?')
    expect(second.code, second.stderr).toBe(0)
    expect(second.stderr).toContain(`session: ${id}`)
    const users = (readRequests(log).at(-1)?.messages ?? []).filter((message) => message.role === 'user').map((message) => message.content ?? '')
    expect(users[0]).toBe('remember the word teal')
    expect(users.at(-1)).toBe('which word?')
    const both = await run('run', '--continue', '--resume', id ?? '', '--model', `scripted:${script}`, 'x')
    expect(both.code).toBe(2)
    expect(both.stderr).toContain('dsh: --continue and --resume cannot be used together')
  })
})
