// Cancelling a running MCP call through the built `dsh acp`: `session/cancel` during server-
// everything's long-running operation ends the prompt as cancelled at once, the server is sent
// `notifications/cancelled` for that call's request id (seen in a copy of what the server reads
// on stdin), and the same server process answers the next call.
import { existsSync, readFileSync } from 'node:fs'
import type { McpServer } from '@agentclientprotocol/sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { spawnAcp, waitFor, type AcpProcess } from './acp-driver.ts'
import { serverScript } from './mcp-servers.ts'
import { readRequests, writeScript } from './run-dsh.ts'

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

/** server-everything whose stdin is also appended to `copy` (a restarted server would append a second `initialize`). */
const everything = (copy: string): McpServer => ({
  name: 'everything',
  command: '/bin/sh',
  args: ['-c', `tee -a ${quoted(copy)} | ${quoted(process.execPath)} ${quoted(serverScript('server-everything'))}`],
  env: [],
})

/** The fields of a JSON-RPC message the test looks at. */
interface Sent {
  readonly id?: number
  readonly method?: string
  readonly params?: { readonly name?: string; readonly requestId?: number }
}

/** The JSON-RPC messages the server was sent. */
function sent(copy: string): Sent[] {
  if (!existsSync(copy)) return []
  return readFileSync(copy, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line): Sent => {
      // oxlint-disable-next-line typescript/no-unsafe-type-assertion -- dsh's MCP client wrote these lines as JSON-RPC messages
      return JSON.parse(line) as Sent
    })
}

describe('cancelling an MCP call', () => {
  it('sends notifications/cancelled for the running call on session/cancel, and the server answers the next call', { timeout: 180_000 }, async () => {
    tree = await tempTree({ 'work/': null })
    const copy = tree.path('server-stdin.jsonl')
    const script = writeScript(tree.root, 'script.json', {
      responses: [{ toolCalls: [{ name: 'mcp__everything__trigger-long-running-operation', arguments: { duration: 3600, steps: 3600 } }] }, { toolCalls: [{ name: 'mcp__everything__echo', arguments: { message: 'still here' } }] }, { text: 'echoed' }],
    })
    const requests = tree.path('requests.jsonl')
    const acp = spawnAcp(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`, '--request-log', requests], { cwd: tree.path('work'), home: tree.root, answer: () => 'allow-once' })
    running.push(acp)
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await acp.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [everything(copy)] })
    const answer = acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'run long' }] })
    await waitFor(() => sent(copy).some((message) => message.method === 'tools/call'), 60_000)
    const call = sent(copy).find((message) => message.method === 'tools/call')
    expect(call?.params?.name).toBe('trigger-long-running-operation')
    await acp.agent.notify('session/cancel', { sessionId })
    expect(await answer).toEqual({ stopReason: 'cancelled' })
    await waitFor(() => sent(copy).some((message) => message.method === 'notifications/cancelled'))
    expect(sent(copy).filter((message) => message.method === 'notifications/cancelled').map((message) => message.params?.requestId)).toEqual([call?.id])
    expect(await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'echo' }] })).toEqual({ stopReason: 'end_turn' })
    expect(readRequests(requests).at(-1)?.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Echo: still here' })
    // The same server answered: it was not restarted.
    expect(sent(copy).filter((message) => message.method === 'initialize')).toHaveLength(1)
    acp.child.stdin?.end()
    expect(await acp.exited).toBe(0)
  })
})
