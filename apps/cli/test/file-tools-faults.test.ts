// Faults of the file tools (issue 22), through the built binary with a scripted model: `write`
// over a file the user changed after the model read it (F3: refused with how to proceed, the
// user's lines kept; a re-read makes the write go through; new files are written as before), and
// `edit` of a CRLF file (F19: the file keeps CRLF line endings).
import { appendFileSync, readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { spawnAcp, type AcpProcess } from './acp-driver.ts'
import { readRequests, runDsh, writeScript } from './run-dsh.ts'

let tree: TempTree
const running: AcpProcess[] = []
afterEach(async () => {
  for (const acp of running.splice(0)) acp.child.kill('SIGKILL')
  await tree?.dispose()
})

const REFUSAL =
  'notes.txt changed since you last read or wrote it (someone else edited it meanwhile), so it was not overwritten: ' +
  'writing it now would drop those changes. Read it again and apply your change to its current content (edit changes part of a file without resending it).'

const toolMessages = (file: string): string[] =>
  readRequests(file)
    .at(-1)
    ?.messages.filter((message) => message.role === 'tool')
    .map((message) => message.content ?? '') ?? []

const write = (content: string) => ({ toolCalls: [{ name: 'write', arguments: { file_path: 'notes.txt', content } }] })

describe('file tools', () => {
  it('F3: `write` over a file the user changed after the model read it is refused and the user keeps their lines', async () => {
    tree = await tempTree({ 'work/notes.txt': 'first line\n' })
    const script = writeScript(tree.root, 'script.json', {
      responses: [
        { toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] },
        { text: 'read it' },
        write('first line\nmodel line\n'),
        { text: 'tried' },
        { toolCalls: [{ name: 'read', arguments: { file_path: 'notes.txt' } }] },
        write('first line\nuser line\nmodel line\n'),
        { toolCalls: [{ name: 'write', arguments: { file_path: 'new.txt', content: 'fresh\n' } }] },
        { text: 'done' },
      ],
    })
    const log = tree.path('requests.jsonl')
    const acp = spawnAcp(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`, '--request-log', log, '--permission-mode', 'auto-edit'], { cwd: tree.path('work'), home: tree.root })
    running.push(acp)
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await acp.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
    const prompt = (text: string) => acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] })
    expect(await prompt('read the notes')).toEqual({ stopReason: 'end_turn' })
    // The user adds a line in their editor while the session is idle.
    appendFileSync(tree.path('work/notes.txt'), 'user line\n')
    expect(await prompt('add a model line')).toEqual({ stopReason: 'end_turn' })
    expect(toolMessages(log).at(-1)).toBe(REFUSAL)
    expect(readFileSync(tree.path('work/notes.txt'), 'utf8')).toBe('first line\nuser line\n')
    expect(await prompt('try again')).toEqual({ stopReason: 'end_turn' })
    const [reread, ...writes] = toolMessages(log).slice(-3)
    expect(reread).toContain('user line')
    expect(writes).toEqual(['Overwrote notes.txt (32 bytes).', 'Created new.txt (6 bytes).'])
    expect(readFileSync(tree.path('work/notes.txt'), 'utf8')).toBe('first line\nuser line\nmodel line\n')
    expect(readFileSync(tree.path('work/new.txt'), 'utf8')).toBe('fresh\n')
  })

  it('F19: `edit` of a CRLF file keeps CRLF line endings, also for a multi-line old_string written with LF', async () => {
    tree = await tempTree({ 'repo/.git/': null, 'repo/list.txt': 'alpha\r\nbeta\r\ndelta\r\n' })
    const script = writeScript(tree.root, 'script.json', {
      responses: [
        { toolCalls: [{ name: 'edit', arguments: { file_path: 'list.txt', old_string: 'beta', new_string: 'beta\ngamma' } }] },
        { toolCalls: [{ name: 'edit', arguments: { file_path: 'list.txt', old_string: 'alpha\nbeta\n', new_string: 'ALPHA\nBETA\n' } }] },
        { text: 'edited' },
      ],
    })
    const run = await runDsh(['--dsh-home', tree.path('home'), 'run', '--cwd', tree.path('repo'), '--model', `scripted:${script}`, '--permission-mode', 'auto-edit', '--request-log', tree.path('requests.jsonl'), 'edit the list'], { cwd: tree.root })
    expect(run).toMatchObject({ code: 0, stdout: 'edited\n' })
    expect(toolMessages(tree.path('requests.jsonl'))).toEqual(['Edited list.txt: replaced 1 occurrence.', 'Edited list.txt: replaced 1 occurrence.'])
    expect(readFileSync(tree.path('repo/list.txt'), 'utf8')).toBe('ALPHA\r\nBETA\r\ngamma\r\ndelta\r\n')
  })
})
