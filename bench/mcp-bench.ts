/**
 * MCP servers at start-up and in the request (issue 23): the built `dsh run` spawned with three
 * stdio servers configured (server-everything, server-memory, server-filesystem), with three that
 * never answer (`sleep`: dsh would wait the whole startup timeout if it waited for servers), and
 * without any, alternated round by round after one warm-up pair, timing spawn → arrival of the
 * first model request at a loopback chat-completions server. Servers start in the background: what
 * the real servers add is their processes' start competing for the CPU, which the silent ones
 * do not cost. Then the bytes the same servers' tools add to every request (`mcpToolBytes`,
 * what `dsh context` reports), with every schema sent and with schemas deferred behind
 * `mcp_tool_schema`. Report-only: nothing here gates CI.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { McpHub, mcpLimits, mcpToolBytes, type ServerEntry } from '@dsh/mcp'
import { ToolRegistry } from '@dsh/runtime'
import { finish, text } from '@dsh/testkit'
import { bundlePath } from './end-to-end.ts'
import { median, range } from './stats.ts'

const require = createRequire(import.meta.url)
const script = (pkg: string): string => join(dirname(require.resolve(`@modelcontextprotocol/${pkg}/package.json`)), 'dist', 'index.js')

/** The three servers as `.mcp.json` entries (`node SCRIPT ARGS`). */
function serverEntries(root: string): Record<string, { command: string; args: string[]; env?: Record<string, string> }> {
  return {
    everything: { command: process.execPath, args: [script('server-everything')] },
    filesystem: { command: process.execPath, args: [script('server-filesystem'), join(root, 'repo')] },
    memory: { command: process.execPath, args: [script('server-memory')], env: { MEMORY_FILE_PATH: join(root, 'memory.jsonl') } },
  }
}

/** A loopback model that answers every request with one text and records when the first arrived. */
async function startModel(): Promise<{ baseUrl: string; firstAt: () => number | undefined; reset: () => void; close: () => Promise<void> }> {
  let first: number | undefined
  const body = `${[text('ok'), finish()].map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('')}data: [DONE]\n\n`
  const server = createServer((req, res) => {
    first ??= performance.now()
    req.resume()
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = address !== null && typeof address === 'object' ? address.port : 0
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    firstAt: () => first,
    reset: () => (first = undefined),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

/** Spawns one `dsh run`; resolves with spawn → first request (ms) once dsh has exited. */
async function timeToFirstRequest(model: Awaited<ReturnType<typeof startModel>>, root: string, extra: readonly string[]): Promise<number> {
  model.reset()
  const started = performance.now()
  const child = spawn(process.execPath, [bundlePath(), '--dsh-home', join(root, 'home'), 'run', '--cwd', join(root, 'repo'), '--model', 'openai:bench-model', '--base-url', model.baseUrl, ...extra, 'hello'], { stdio: 'ignore', env: { ...process.env, OPENAI_API_KEY: 'sk-bench' } })
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  const first = model.firstAt()
  if (code !== 0 || first === undefined) throw new Error(`dsh run exited with ${String(code)}${first === undefined ? ' before any model request' : ''}`)
  return first - started
}

/** The bytes the servers' tools add to a request with `deferAboveTools`. */
async function toolBytes(root: string, deferAboveTools: number): Promise<{ tools: number; bytes: number; schemaTool: number }> {
  const entries: ServerEntry[] = Object.entries(serverEntries(root)).map(([name, entry]) => ({ name, source: 'config', config: { transport: 'stdio', command: entry.command, args: entry.args, env: entry.env ?? {} }, options: {} }))
  const registry = new ToolRegistry()
  const hub = new McpHub({ entries, limits: mcpLimits({ deferAboveTools }), registry, cwd: join(root, 'repo'), env: process.env, marker: () => ({ name: 'DSH_BENCH_MCP', value: '1' }), log: () => undefined, version: 'bench' })
  hub.start()
  try {
    await hub.ready()
    const measured = mcpToolBytes(registry)
    return { tools: [...measured.servers.values()].reduce((sum, entry) => sum + entry.tools, 0), bytes: measured.total, schemaTool: measured.schemaTool }
  } finally {
    await hub.close()
  }
}

/** Runs both parts; returns the report lines. */
export async function mcpBench(rounds: number): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), 'dsh-bench-mcp-'))
  mkdirSync(join(root, 'repo', '.git'), { recursive: true })
  writeFileSync(join(root, 'servers.json'), JSON.stringify({ mcpServers: serverEntries(root) }))
  const model = await startModel()
  try {
    // Unique durations, so that no other process on the machine is mistaken for these.
    const silent = Object.fromEntries(['a', 'b', 'c'].map((name, index) => [name, { command: 'sleep', args: [`${7231 + index}.5`] }]))
    writeFileSync(join(root, 'silent.json'), JSON.stringify({ mcpServers: silent }))
    const configs = { none: [], three: ['--mcp-config', join(root, 'servers.json')], silent: ['--mcp-config', join(root, 'silent.json')] } as const
    const kinds = ['none', 'three', 'silent'] as const
    const samples: Record<(typeof kinds)[number], number[]> = { none: [], three: [], silent: [] }
    for (let round = 0; round <= rounds; round += 1) {
      const order = round % 2 === 0 ? kinds : kinds.toReversed()
      for (const kind of order) {
        const ms = await timeToFirstRequest(model, root, configs[kind])
        if (round > 0) samples[kind].push(ms)
      }
    }
    const none = median(samples.none)
    const line = (label: string, kind: (typeof kinds)[number]): string => {
      const ms = median(samples[kind])
      const spread = range(samples[kind])
      return `  ${label.padEnd(54)} ${ms.toFixed(1).padStart(8)} ms  (range ${spread.min.toFixed(1)}–${spread.max.toFixed(1)})${kind === 'none' ? '' : `   ×${(ms / none).toFixed(2)} vs none`}`
    }
    const sent = await toolBytes(root, 1000)
    const deferred = await toolBytes(root, 0)
    return [
      `MCP start-up (${rounds} rounds after 1 warm-up pair, alternated; spawn of dsh run → first model request, median ms):`,
      line('no MCP servers', 'none'),
      line('three stdio servers (everything, memory, filesystem)', 'three'),
      line('three stdio servers that never answer', 'silent'),
      `MCP tools in every request (server-everything, server-memory, server-filesystem: ${sent.tools} tools):`,
      `  every schema sent              ${String(sent.bytes).padStart(8)} bytes`,
      `  deferred (mcp_tool_schema)     ${String(deferred.bytes).padStart(8)} bytes  (mcp_tool_schema ${deferred.schemaTool} of them)   ×${(deferred.bytes / sent.bytes).toFixed(2)}`,
      `  the default mcp.deferAboveTools (40) ${sent.tools > 40 ? 'defers these' : 'sends every schema for these'}`,
    ]
  } finally {
    await model.close()
    rmSync(root, { recursive: true, force: true })
  }
}
