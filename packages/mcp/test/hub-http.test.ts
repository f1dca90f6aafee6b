// server-everything in its Streamable HTTP mode on a free port (always reached on 127.0.0.1), also
// through the HTTP proxy dsh's environment names (Debian's tinyproxy), with the proxy settings
// passed on to stdio servers and nothing else; and schema deferral behind mcp_tool_schema when
// there are more MCP tools than mcp.deferAboveTools.
import { spawn, type ChildProcess } from 'node:child_process'
import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { startTinyproxy, tempTree, type TempTree, type Tinyproxy } from '@dsh/testkit'
import { TOOL_SCHEMA_TOOL, type ServerEntry } from '@dsh/mcp'
import { freePort, hubOf, runContext, serverScript, stdioEntry } from './servers.ts'

let tree: TempTree | undefined
let server: ChildProcess | undefined
let proxy: Tinyproxy | undefined
afterEach(async () => {
  server?.kill('SIGKILL')
  server = undefined
  await proxy?.close()
  proxy = undefined
  await tree?.dispose()
  tree = undefined
})

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

/** server-everything in Streamable HTTP mode on a free port, once it listens. */
async function httpServer(): Promise<number> {
  const port = await freePort()
  server = spawn(process.execPath, [serverScript('server-everything'), 'streamableHttp'], { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, stdio: 'ignore' })
  const deadline = Date.now() + 60_000
  while (!(await listening(port))) {
    if (Date.now() > deadline) throw new Error('server-everything did not listen')
    await new Promise((wake) => setTimeout(wake, 50))
  }
  return port
}

const remote = (port: number): ServerEntry => ({ name: 'remote', source: 'config', config: { transport: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: {} }, options: { enabledTools: ['echo', 'get-sum'] } })

describe('Streamable HTTP', () => {
  it('connects to server-everything over HTTP and calls a tool', { timeout: 120_000 }, async () => {
    tree = await tempTree()
    const { hub, registry, warnings } = hubOf([remote(await httpServer())], tree.root)
    hub.start()
    await hub.ready()
    try {
      expect(warnings).toEqual([])
      expect(registry.list().map((tool) => tool.name)).toEqual(['mcp__remote__echo', 'mcp__remote__get-sum'])
      expect(await registry.get('mcp__remote__echo')?.execute({ message: 'over http' }, runContext(tree.root))).toEqual({ content: 'Echo: over http' })
    } finally {
      await hub.close()
    }
  })

  it('reaches a remote server through the proxy the environment names, and hands the proxy to stdio servers', { timeout: 120_000 }, async () => {
    tree = await tempTree()
    const port = await httpServer()
    proxy = await startTinyproxy()
    const env = { PATH: process.env.PATH ?? '', HTTP_PROXY: proxy.url, https_proxy: 'http://proxy.corp:3128', FAKE_API_KEY: 'must-not-leak' }
    const { hub, registry, warnings } = hubOf([remote(port), stdioEntry('local', serverScript('server-everything'))], tree.root, {}, { env })
    hub.start()
    await hub.ready()
    try {
      expect(warnings).toEqual([])
      expect(await registry.get('mcp__remote__echo')?.execute({ message: 'via proxy' }, runContext(tree.root))).toEqual({ content: 'Echo: via proxy' })
      await expect.poll(() => proxy?.log().includes(`CONNECT 127.0.0.1:${port} HTTP/1.1`), { timeout: 20_000 }).toBe(true)
      const seen = await registry.get('mcp__local__get-env')?.execute({}, runContext(tree.root))
      expect(seen?.content).toContain(proxy.url)
      expect(seen?.content).toContain('http://proxy.corp:3128')
      expect(seen?.content).not.toContain('must-not-leak')
    } finally {
      await hub.close()
    }
  })
})

describe('deferral', () => {
  it('offers one-line descriptions, an open schema and mcp_tool_schema above the threshold', { timeout: 120_000 }, async () => {
    tree = await tempTree()
    const { hub, registry } = hubOf([stdioEntry('everything', serverScript('server-everything'))], tree.root, { deferAboveTools: 3 })
    hub.start()
    await hub.ready()
    try {
      const echo = registry.get('mcp__everything__echo')
      expect(echo?.wireParameters).toEqual({ type: 'object', additionalProperties: true })
      expect(echo?.description).toMatch(/ \(MCP everything; get its parameters with mcp_tool_schema first\)$/)
      const schema = await registry.get(TOOL_SCHEMA_TOOL)?.execute({ name: 'mcp__everything__echo' }, runContext(tree.root))
      expect(schema?.content).toMatch(/^mcp__everything__echo\n\n[^\n]+\n\nInput schema:\n\{/)
      expect(schema?.content).toContain('"message"')
      expect((await registry.get(TOOL_SCHEMA_TOOL)?.execute({ name: 'nope' }, runContext(tree.root)))?.isError).toBe(true)
      expect(await echo?.execute({ message: 'still works' }, runContext(tree.root))).toEqual({ content: 'Echo: still works' })
    } finally {
      await hub.close()
    }
  })
})
