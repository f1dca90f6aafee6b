/**
 * Test helpers: the real MCP servers from npm (devDependencies) as server entries, a hub over a
 * real tool registry, and a free loopback port for HTTP mode.
 */
import { fileURLToPath } from 'node:url'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { ToolRunContext } from '@dsh/contracts'
import { createLocalFileSystem } from '@dsh/fs-local'
import { ToolRegistry } from '@dsh/runtime'
import { McpHub, mcpLimits, type McpLimits, type ServerEntry, type McpHubOptions } from '@dsh/mcp'

const require = createRequire(import.meta.url)

/** Absolute path of an installed server's entry script. */
export function serverScript(pkg: 'server-everything' | 'server-filesystem' | 'server-memory'): string {
  return join(dirname(require.resolve(`@modelcontextprotocol/${pkg}/package.json`)), 'dist', 'index.js')
}

/** The fault server next to this file. */
export const faultServer = fileURLToPath(new URL('./fault-server.mjs', import.meta.url))

/** A stdio entry running `node SCRIPT ARGS`. */
export function stdioEntry(name: string, script: string, args: readonly string[] = [], env: Record<string, string> = {}): ServerEntry {
  return { name, source: 'config', config: { transport: 'stdio', command: process.execPath, args: [script, ...args], env }, options: {} }
}

/** A hub over a fresh registry, with the given entries. */
export function hubOf(entries: readonly ServerEntry[], cwd: string, overrides: Partial<McpLimits> = {}, extra: Partial<McpHubOptions> = {}): { hub: McpHub; registry: ToolRegistry; warnings: string[] } {
  const registry = new ToolRegistry()
  const warnings: string[] = []
  const hub = new McpHub({
    entries,
    limits: { ...mcpLimits(undefined), ...overrides },
    registry,
    cwd,
    env: process.env,
    marker: () => ({ name: 'DSH_TOOL_CALL', value: `test.${process.pid}:mcp` }),
    log: (line) => warnings.push(line),
    version: '0.0.0-test',
    ...extra,
  })
  return { hub, registry, warnings }
}

/** A run context for calling a tool directly. */
export function runContext(cwd: string, signal = new AbortController().signal): ToolRunContext {
  return {
    cwd,
    signal,
    fs: createLocalFileSystem({ writableRoots: [cwd] }),
    execution: { callId: 'c1', name: 'mcp', arguments: {}, signal, token: Symbol('c1') },
    dispatch: () => Promise.reject(new Error('no nested calls here')),
    deferContext: () => undefined,
  }
}

/** A free TCP port on 127.0.0.1 (the testkit's). */
export { freePort } from '@dsh/testkit'
