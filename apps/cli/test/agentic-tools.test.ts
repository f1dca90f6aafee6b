// End to end through the built binary: subagent delegation and Code Mode's run_code.
import { readdirSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { readRequests, runDsh, sessionIdOf, writeScript } from './run-dsh.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

const delegate = { toolCalls: [{ name: 'subagent', arguments: { prompt: 'Read data.txt and report its content.' } }] }
const childRead = { toolCalls: [{ name: 'read', arguments: { file_path: 'data.txt' } }] }

/** The raw session file of the only child of `parentId`. */
function childSession(parentId: string): string {
  const files = readdirSync(tree.path('home/sessions')).filter((name) => name.endsWith('.jsonl') && name !== `${parentId}.jsonl`)
  expect(files).toHaveLength(1)
  return readFileSync(tree.path(`home/sessions/${files[0] ?? ''}`), 'utf8')
}

describe('agentic tools through dsh run', () => {
  it('a subagent runs as a child session and its answer reaches the parent', async () => {
    tree = await tempTree({ 'repo/data.txt': 'forty-two\n', 'scripts/': null })
    const script = writeScript(tree.path('scripts'), 'delegate.json', {
      responses: [
        { toolCalls: [{ name: 'subagent', arguments: { prompt: 'Read data.txt and report its content.' } }] },
        { toolCalls: [{ name: 'read', arguments: { file_path: 'data.txt' } }] },
        { text: 'The file says forty-two.' },
        { text: 'My helper found: forty-two.' },
      ],
    })
    const log = tree.path('requests.jsonl')
    const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--request-log', log, 'what is in data.txt?'], { cwd: tree.root })
    expect(result).toMatchObject({ code: 0, stdout: 'My helper found: forty-two.\n' })
    const parentId = sessionIdOf(result.stderr)
    const files = readdirSync(tree.path('home/sessions')).filter((name) => name.endsWith('.jsonl'))
    expect(files).toHaveLength(2)
    const childFile = files.find((name) => name !== `${parentId}.jsonl`)!
    const header: unknown = JSON.parse(readFileSync(tree.path(`home/sessions/${childFile}`), 'utf8').split('\n')[0]!)
    expect(header).toMatchObject({ origin: 'subagent', parentSession: parentId, delegationDepth: 1 })
    const parentRequests = readRequests(log).filter((body) => body.messages[1]?.content === 'what is in data.txt?')
    const toolResult = parentRequests.at(-1)?.messages.find((m) => m.role === 'tool')
    expect(toolResult?.content).toContain('The file says forty-two.')
  })

  it('--request-log gets one line per model call, those of the child included', async () => {
    tree = await tempTree({ 'repo/data.txt': 'forty-two\n', 'scripts/': null })
    const script = writeScript(tree.path('scripts'), 'delegate.json', { responses: [delegate, childRead, { text: 'The file says forty-two.' }, { text: 'forty-two' }] })
    const log = tree.path('requests.jsonl')
    const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--request-log', log, 'what is in data.txt?'], { cwd: tree.root })
    expect(result).toMatchObject({ code: 0, stdout: 'forty-two\n' })
    const firstUser = readRequests(log).map((body) => String(body.messages[1]?.content))
    expect(firstUser).toHaveLength(4)
    expect(firstUser[0]).toBe('what is in data.txt?')
    expect(firstUser[1]).toMatch(/^This is a delegated task/)
    expect(firstUser[2]).toMatch(/^This is a delegated task/)
    expect(firstUser[3]).toBe('what is in data.txt?')
  })

  it('--max-steps limits the child too', async () => {
    tree = await tempTree({ 'repo/data.txt': 'forty-two\n', 'scripts/': null })
    const script = writeScript(tree.path('scripts'), 'delegate.json', { responses: [delegate, childRead, { text: 'child: never reached' }, { text: 'parent: never reached' }] })
    const log = tree.path('requests.jsonl')
    const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--request-log', log, '--max-steps', '1', 'what is in data.txt?'], { cwd: tree.root })
    expect(result.code).toBe(1)
    expect(readRequests(log)).toHaveLength(2)
    const child = childSession(sessionIdOf(result.stderr))
    expect(child).toMatch(/"type":"turn\/end",.*"data":\{"turn":1,"reason":"max-steps"\}/)
    expect(child).not.toContain('never reached')
  })

  it('automatic compaction settings reach the child', async () => {
    tree = await tempTree({ 'repo/data.txt': `forty-two\n${'filler line\n'.repeat(2000)}`, 'scripts/': null, 'dsh.yaml': 'model:\n  contextWindow: 1000\n  autoCompactShare: 0.01\n' })
    // The child reads twice: before its third step the first read is old enough to be compacted.
    const script = writeScript(tree.path('scripts'), 'delegate.json', { responses: [delegate, childRead, childRead, { text: 'The file says forty-two.' }, { text: 'forty-two' }] })
    const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--config', tree.path('dsh.yaml'), '--model', `scripted:${script}`, 'what is in data.txt?'], { cwd: tree.root })
    expect(result).toMatchObject({ code: 0, stdout: 'forty-two\n' })
    expect(childSession(sessionIdOf(result.stderr))).toContain('"kind":"compaction"')
  })

  it('run_code dispatches nested tool calls through the pipeline', async () => {
    tree = await tempTree({ 'repo/a.txt': 'alpha\n', 'scripts/': null })
    const code = "const text = await tools.read({ file_path: 'a.txt' }); console.log(text.includes('alpha') ? 'found alpha' : 'missing'); return 7"
    const script = writeScript(tree.path('scripts'), 'code.json', { responses: [{ toolCalls: [{ name: 'run_code', arguments: { code } }] }, { text: 'ok' }] })
    const log = tree.path('requests.jsonl')
    const result = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--request-log', log, 'use code'], { cwd: tree.root })
    expect(result).toMatchObject({ code: 0, stdout: 'ok\n' })
    const toolResult = readRequests(log)[1]?.messages.find((m) => m.role === 'tool')?.content ?? ''
    expect(toolResult).toContain('found alpha')
    expect(toolResult).toContain('7')
  })
})
