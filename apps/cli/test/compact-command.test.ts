// dsh compact at rest through the built binary: a session of one long turn is compacted whole.
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { readRequests, runDsh, sessionIdOf, writeScript } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

const read = (file: string) => ({ toolCalls: [{ name: 'read', arguments: { file_path: file } }] })

describe('dsh compact', () => {
  it('compacts a session whose only turn is long, keeping the prompt verbatim for the next turn', async () => {
    tree = await tempTree({ 'repo/notes.txt': 'alpha\n', 'repo/more.txt': 'beta\n' })
    const home = tree.path('home')
    const first = writeScript(tree.root, 'first.json', { responses: [read('notes.txt'), read('more.txt'), { text: 'alpha, then beta' }] })
    const run = await runDsh(['--dsh-home', home, 'run', '--cwd', tree.path('repo'), '--model', `scripted:${first}`, 'read notes.txt, then more.txt'], { cwd: tree.root })
    const id = sessionIdOf(run.stderr)
    const compact = await runDsh(['--dsh-home', home, 'compact', id], { cwd: tree.root })
    expect(compact).toMatchObject({ code: 0, stdout: `compacted ${id}: 6 visible messages -> 1\n` })
    const again = await runDsh(['--dsh-home', home, 'compact', id], { cwd: tree.root })
    expect(again).toMatchObject({ code: 0, stdout: `nothing to compact in ${id} (its visible history is empty or already one checkpoint)\n` })
    const next = writeScript(tree.root, 'next.json', { responses: [{ text: 'done' }] })
    const log = tree.path('requests.jsonl')
    await runDsh(['--dsh-home', home, 'run', '--model', `scripted:${next}`, '--resume', id, '--request-log', log, 'and now?'], { cwd: tree.root })
    const messages = readRequests(log)[0]?.messages.slice(1).map((message) => message.content)
    expect(messages).toEqual([expect.stringMatching(/Called read \{"file_path":"more\.txt"\}[\s\S]*The user's latest request, verbatim:\n\nread notes\.txt, then more\.txt\n\nContinue from here/), 'and now?'])
  })
})
