// The MCP servers an editor sends over ACP, through the built `dsh acp` and the ACP SDK's client:
// a stdio server-everything of `session/new` whose echo result reaches the next model request,
// offered to that session only, ended by `session/close`; an `http` entry (server-everything's
// Streamable HTTP mode on a free loopback port) likewise; and no server process outliving dsh
// after SIGTERM, SIGHUP or stdin EOF (found by a marker unique to the test in their environment).
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { connect } from 'node:net'
import type { McpServer } from '@agentclientprotocol/sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { freePort, tempTree, type TempTree } from '@dsh/testkit'
import { spawnAcp, waitFor, type AcpProcess } from './acp-driver.ts'
import { serverScript } from './mcp-servers.ts'
import { readRequests, writeScript, type RequestBody } from './run-dsh.ts'
import { isAlive, pidsWithEnv, StartedProcesses } from './test-processes.ts'

let tree: TempTree | undefined
const running: AcpProcess[] = []
const started = new StartedProcesses()
let httpServer: ChildProcess | undefined
afterEach(async () => {
  httpServer?.kill('SIGKILL')
  httpServer = undefined
  for (const acp of running.splice(0)) {
    acp.child.kill('SIGKILL')
    await acp.exited
  }
  started.endAll()
  await tree?.dispose()
})

const markerName = 'DSH_TEST_MCP_MARKER'

/** server-everything over stdio as ACP spells it, carrying `marker` in its environment. */
const everything = (marker: string): McpServer => ({ name: 'everything', command: process.execPath, args: [serverScript('server-everything')], env: [{ name: markerName, value: marker }] })

function launch(args: readonly string[], options: Parameters<typeof spawnAcp>[1]): AcpProcess {
  const acp = spawnAcp(args, options)
  running.push(acp)
  return acp
}

/** True once something accepts connections on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

const toolNames = (body: RequestBody | undefined): string[] => (body?.tools ?? []).map((tool) => JSON.stringify(tool).match(/"name":"([^"]+)"/)?.[1] ?? '')

describe('dsh acp with the MCP servers of session/new', () => {
  it('calls mcp__everything__echo of its session, sends the result with the next request, offers it to that session only and ends it on session/close', { timeout: 180_000 }, async () => {
    tree = await tempTree({ 'work/': null })
    const marker = randomUUID()
    const script = writeScript(tree.root, 'script.json', { responses: [{ toolCalls: [{ name: 'mcp__everything__echo', arguments: { message: 'hello from the editor' } }] }, { text: 'echoed' }, { text: 'plain' }] })
    const log = tree.path('requests.jsonl')
    const acp = launch(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`, '--request-log', log], { cwd: tree.path('work'), home: tree.root, answer: () => 'allow-once' })
    const hello = await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    expect(hello.agentCapabilities).toMatchObject({ mcpCapabilities: { http: true }, sessionCapabilities: { close: {} } })
    const { sessionId } = await acp.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [everything(marker)] })
    expect(await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'echo' }] })).toEqual({ stopReason: 'end_turn' })
    const [, second] = readRequests(log)
    expect(second?.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Echo: hello from the editor' })
    expect(toolNames(second)).toContain('mcp__everything__echo')
    // Another session of the same connection has no MCP tools.
    const other = await acp.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
    expect(await acp.agent.request('session/prompt', { sessionId: other.sessionId, prompt: [{ type: 'text', text: 'hi' }] })).toEqual({ stopReason: 'end_turn' })
    expect(toolNames(readRequests(log)[2]).filter((name) => name.startsWith('mcp__'))).toEqual([])
    const pids = pidsWithEnv(markerName, marker)
    started.add(...pids)
    expect(pids.length).toBeGreaterThan(0)
    await acp.agent.request('session/close', { sessionId })
    expect(pids.filter(isAlive)).toEqual([])
    expect(acp.stderr()).not.toContain('warning')
    acp.child.stdin?.end()
    expect(await acp.exited).toBe(0)
  })

  it('connects an http entry of session/new and calls its tool', { timeout: 180_000 }, async () => {
    tree = await tempTree({ 'work/': null })
    const port = await freePort()
    httpServer = spawn(process.execPath, [serverScript('server-everything'), 'streamableHttp'], { env: { PATH: process.env['PATH'] ?? '', PORT: String(port) }, stdio: 'ignore' })
    let up = false
    for (let tries = 0; !up && tries < 1200; tries += 1) {
      up = await listening(port)
      if (!up) await new Promise((wake) => setTimeout(wake, 50))
    }
    expect(up).toBe(true)
    const script = writeScript(tree.root, 'script.json', { responses: [{ toolCalls: [{ name: 'mcp__web__echo', arguments: { message: 'over http' } }] }, { text: 'echoed' }] })
    const log = tree.path('requests.jsonl')
    const acp = launch(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`, '--request-log', log], { cwd: tree.path('work'), home: tree.root, answer: () => 'allow-once' })
    await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
    const { sessionId } = await acp.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [{ type: 'http', name: 'web', url: `http://127.0.0.1:${port}/mcp`, headers: [] }] })
    expect(await acp.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'echo over http' }] })).toEqual({ stopReason: 'end_turn' })
    expect(readRequests(log)[1]?.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Echo: over http' })
    acp.child.stdin?.end()
    expect(await acp.exited).toBe(0)
  })

  for (const ending of ['SIGTERM', 'SIGHUP', 'stdin EOF'] as const) {
    it(`leaves no server process behind after ${ending}`, { timeout: 120_000 }, async () => {
      tree = await tempTree({ 'work/': null })
      const marker = randomUUID()
      const script = writeScript(tree.root, 'script.json', { responses: [{ text: 'unused' }] })
      const acp = launch(['--dsh-home', tree.path('home'), '--model', `scripted:${script}`], { cwd: tree.path('work'), home: tree.root })
      await acp.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} })
      await acp.agent.request('session/new', { cwd: tree.path('work'), mcpServers: [everything(marker)] })
      await waitFor(() => pidsWithEnv(markerName, marker).length > 0, 60_000)
      const pids = pidsWithEnv(markerName, marker)
      started.add(...pids)
      if (ending === 'stdin EOF') acp.child.stdin?.end()
      else acp.child.kill(ending)
      expect(await acp.exited).toBe(ending === 'stdin EOF' ? 0 : ending === 'SIGTERM' ? 143 : 129)
      expect(pids.filter(isAlive)).toEqual([])
      expect(pidsWithEnv(markerName, marker)).toEqual([])
    })
  }
})
