// dsh compact at rest through the built binary: a session of one long turn is compacted whole, and
// so is one whose only turn a SIGKILL cut off (closed first, as a resume closes it).
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { dshBinary, readRequests, runDsh, sessionIdOf, testEnv, writeScript } from './run-dsh.ts'

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

  it('compacts a session whose only turn a crash cut off: the turn is closed first, its call answered, and nothing is left unanswered', { timeout: 120_000 }, async () => {
    tree = await tempTree({ 'repo/': null })
    const home = tree.path('home')
    const hang = writeScript(tree.root, 'hang.json', { responses: [{ toolCalls: [{ name: 'bash', arguments: { command: 'echo $$ > sleeper.pid; exec sleep 1000' } }] }] })
    const child = spawn(dshBinary, ['--dsh-home', home, 'run', '--cwd', tree.path('repo'), '--model', `scripted:${hang}`, 'wait for it'], { cwd: tree.root, env: testEnv(tree.root), stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const pidFile = tree.path('repo/sleeper.pid')
    const deadline = Date.now() + 60_000
    while (!(existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '') && Date.now() < deadline) await new Promise((wake) => setTimeout(wake, 25))
    const exited = new Promise((resolve) => child.on('exit', resolve))
    child.kill('SIGKILL')
    await exited
    // A SIGKILLed dsh cannot end its tool's process: this test does.
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL')
    const id = sessionIdOf(stderr)
    const compact = await runDsh(['--dsh-home', home, 'compact', id], { cwd: tree.root })
    expect(compact).toEqual({ code: 0, stdout: `compacted ${id}: 3 visible messages -> 1\n`, stderr: '' })
    const next = writeScript(tree.root, 'next.json', { responses: [{ text: 'done' }] })
    const log = tree.path('requests.jsonl')
    expect(await runDsh(['--dsh-home', home, 'run', '--model', `scripted:${next}`, '--resume', id, '--request-log', log, 'and now?'], { cwd: tree.root })).toMatchObject({ code: 0, stdout: 'done\n' })
    const messages = readRequests(log)[0]?.messages.slice(1) ?? []
    expect(messages.map((message) => message.role)).toEqual(['user', 'user'])
    expect(messages[0]?.content).toMatch(/Called bash \{"command":"echo \$\$ > sleeper\.pid; exec sleep 1000"\}\n→ bash error: The bash call was interrupted[\s\S]*The user's latest request, verbatim:\n\nwait for it\n\nContinue from here/)
  })
})
