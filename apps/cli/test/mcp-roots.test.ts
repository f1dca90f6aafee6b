// MCP roots through the built `dsh acp` with the real server-filesystem, which asks `roots/list`
// and restricts itself to the roots: a file in the session's additional directory is readable
// through its tool and one outside the roots is not; a root added with `dsh roots add` while the
// session lives, then gone missing and back, reaches the server through
// `notifications/roots/list_changed`. The server's stderr goes to a file in the test's tree, whose
// "Updated allowed directories" lines say when it applied new roots (it applies them
// asynchronously, so the test waits for that line before the prompt that uses them).
import { readFileSync, renameSync, existsSync } from 'node:fs'
import type { McpServer } from '@agentclientprotocol/sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { spawnAcp, waitFor, type AcpProcess } from './acp-driver.ts'
import { serverScript } from './mcp-servers.ts'
import { readRequests, runDsh, writeScript } from './run-dsh.ts'

let tree: TempTree | undefined
const running: AcpProcess[] = []
afterEach(async () => {
  for (const acp of running.splice(0)) {
    acp.child.kill('SIGKILL')
    await acp.exited
  }
  await tree?.dispose()
})

const quoted = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`

/** server-filesystem without directory arguments (roots only), its stderr appended to `log`. */
const filesystem = (log: string): McpServer => ({ name: 'fs', command: '/bin/sh', args: ['-c', `exec ${quoted(process.execPath)} ${quoted(serverScript('server-filesystem'))} 2>>${quoted(log)}`], env: [] })

const read = (path: string) => ({ name: 'mcp__fs__read_text_file', arguments: { path } })

describe('MCP roots', () => {
  it('tells server-filesystem the working directory and the available additional roots, and every change of them', { timeout: 180_000 }, async () => {
    tree = await tempTree({ 'work/': null, 'lib/lib.txt': 'from the additional directory\n', 'extra/extra.txt': 'from the registered root\n' })
    const log = tree.path('fs-stderr.log')
    const applied = (count: number): number => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter((line) => line === `Updated allowed directories from MCP roots: ${count} valid directories`).length : 0)
    const script = writeScript(tree.root, 'script.json', {
      responses: [{ toolCalls: [read(tree.path('lib/lib.txt')), read(tree.path('extra/extra.txt'))] }, { text: 'read' }, { text: 'noted' }, { toolCalls: [read(tree.path('extra/extra.txt'))] }, { text: 'read again' }, { text: 'gone' }, { text: 'back' }],
    })
    const requests = tree.path('requests.jsonl')
    const home = tree.path('home')
    const acp = spawnAcp(['--dsh-home', home, '--model', `scripted:${script}`, '--request-log', requests], { cwd: tree.path('work'), home: tree.root, answer: () => 'allow-once' })
    running.push(acp)
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await acp.agent.request('session/new', { cwd: tree.path('work'), additionalDirectories: [tree.path('lib')], mcpServers: [filesystem(log)] })
    const prompt = (text: string) => acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] })
    await waitFor(() => applied(2) === 1, 60_000)
    expect(await prompt('read both')).toEqual({ stopReason: 'end_turn' })
    const results = readRequests(requests)[1]?.messages.filter((message) => message.role === 'tool').map((message) => message.content)
    expect(results?.[0]).toBe('from the additional directory\n')
    expect(results?.[1]).toMatch(/Access denied/)
    expect((await runDsh(['--dsh-home', home, 'roots', 'add', tree.path('extra')], { cwd: tree.path('work') })).code).toBe(0)
    expect(await prompt('a root was added')).toEqual({ stopReason: 'end_turn' })
    await waitFor(() => applied(3) === 1, 60_000)
    expect(await prompt('read it now')).toEqual({ stopReason: 'end_turn' })
    expect(readRequests(requests)[4]?.messages.at(-1)).toMatchObject({ role: 'tool', content: 'from the registered root\n' })
    renameSync(tree.path('extra'), tree.path('extra-away'))
    expect(await prompt('it went missing')).toEqual({ stopReason: 'end_turn' })
    await waitFor(() => applied(2) === 2, 60_000)
    renameSync(tree.path('extra-away'), tree.path('extra'))
    expect(await prompt('it is back')).toEqual({ stopReason: 'end_turn' })
    await waitFor(() => applied(3) === 2, 60_000)
    acp.child.stdin?.end()
    expect(await acp.exited).toBe(0)
  })
})
