// `dsh context` with MCP servers: each configured server with its state and the bytes its tools add
// to every model request (server-memory, the fault server with one tool left out, a server that
// cannot start), then the same servers with schemas deferred (mcp.deferAboveTools below their
// count): smaller tools plus mcp_tool_schema. Golden text; the JSON form carries the same figures.
import { writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { golden } from './chat-steps.ts'
import { faultServer, serverScript } from './mcp-servers.ts'
import { runDsh } from './run-dsh.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

const mcpSection = (stdout: string): string => stdout.slice(stdout.indexOf('MCP servers'))

describe('dsh context with MCP servers', () => {
  it('shows the bytes each server\'s tools cost per request, with and without deferral', { timeout: 180_000 }, async () => {
    tree = await tempTree({ 'repo/.git/': null, 'defer.yaml': 'mcp:\n  deferAboveTools: 5\n' })
    writeFileSync(
      tree.path('servers.json'),
      JSON.stringify({
        mcpServers: {
          memory: { command: process.execPath, args: [serverScript('server-memory')], env: { MEMORY_FILE_PATH: tree.path('memory.jsonl') } },
          faults: { command: process.execPath, args: [faultServer, 'tools'] },
          ghost: { command: 'no-such-mcp-command-anywhere' },
        },
      }),
    )
    const context = (...extra: string[]) => runDsh(['--dsh-home', tree?.path('home') ?? '', 'context', '--cwd', tree?.path('repo') ?? '', '--mcp-config', tree?.path('servers.json') ?? '', ...extra], { cwd: tree?.root ?? '', timeoutMs: 60_000 })
    const plain = await context()
    const deferred = await context('--config', tree.path('defer.yaml'))
    expect(plain.code).toBe(0)
    expect(deferred.code).toBe(0)
    expect(`${mcpSection(plain.stdout)}--- mcp.deferAboveTools: 5\n${mcpSection(deferred.stdout)}`.trimEnd()).toBe(golden('context-mcp.txt', `${mcpSection(plain.stdout)}--- mcp.deferAboveTools: 5\n${mcpSection(deferred.stdout)}`.trimEnd()))
    const json = await context('--json')
    const parsed: unknown = JSON.parse(json.stdout)
    expect(parsed).toMatchObject({ mcpServers: [{ name: 'faults', tools: 3 }, { name: 'ghost', tools: 0, bytes: 0 }, { name: 'memory', tools: 9 }], mcpToolSchemaBytes: 0, mcpToolBytes: 4494 })
  })
})
