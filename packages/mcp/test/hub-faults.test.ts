// The hub against the fault server: one warning per server that cannot start (missing command,
// exit at start, silence past the startup timeout), a schema the model API would reject left out
// with one warning, a crash mid-call as an error result quoting stderr followed by one restart,
// and cancellation.
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import type { ServerEntry } from '@dsh/mcp'
import { faultServer, hubOf, stdioEntry, runContext } from './servers.ts'

const trees: TempTree[] = []
afterEach(async () => {
  for (const tree of trees.splice(0)) await tree.dispose()
})


async function root(): Promise<string> {
  const tree = await tempTree()
  trees.push(tree)
  return tree.root
}

describe('servers that cannot start', () => {
  it('costs one warning line each, naming the server and why', async () => {
    const cwd = await root()
    const missing: ServerEntry = { name: 'missing', source: 'config', config: { transport: 'stdio', command: 'no-such-mcp-server-command', args: [], env: {} }, options: {} }
    const { hub, registry, warnings } = hubOf([missing, stdioEntry('dies', faultServer, ['exit'])], cwd)
    hub.start()
    await hub.ready()
    await hub.close()
    expect(warnings.toSorted()).toEqual([
      'warning: MCP server "dies" failed: the server exited at start: fault-server: cannot open the database; its tools are not available (dsh mcp get dies shows its stderr)',
      'warning: MCP server "missing" failed: command not found: no-such-mcp-server-command; its tools are not available (dsh mcp get missing shows its stderr)',
    ])
    expect(registry.list()).toEqual([])
  })

  it('gives up on a silent server after the startup timeout', async () => {
    const cwd = await root()
    const { hub, warnings } = hubOf([stdioEntry('silent', faultServer, ['silent'])], cwd, { startupTimeoutMs: 1000 })
    hub.start()
    await hub.ready()
    await hub.close()
    expect(warnings).toEqual(['warning: MCP server "silent" failed: timed out after 1 s; its tools are not available (dsh mcp get silent shows its stderr)'])
    expect(hub.status()[0]?.state).toEqual({ kind: 'failed', reason: 'timed out after 1 s' })
  })
})

describe('tools of the fault server', () => {
  it('leaves out a schema the API would reject, with one warning, and keeps the rest', async () => {
    const cwd = await root()
    const { hub, registry, warnings } = hubOf([stdioEntry('faults', faultServer)], cwd)
    hub.start()
    await hub.ready()
    try {
      expect(registry.list().map((tool) => tool.name)).toEqual(['mcp__faults__crash', 'mcp__faults__hang', 'mcp__faults__ok'])
      expect(warnings).toEqual(['warning: MCP server "faults": tool "bad_schema" is left out: its input schema has type "string", not "object"'])
      expect(registry.get('mcp__faults__ok')?.readOnly).toBe(true)
      expect(registry.get('mcp__faults__crash')?.readOnly).toBeUndefined()
    } finally {
      await hub.close()
    }
  })

  it('turns a crash mid-call into an error result quoting stderr, then restarts the server once', async () => {
    const cwd = await root()
    const { hub, registry, warnings } = hubOf([stdioEntry('faults', faultServer)], cwd)
    hub.start()
    await hub.ready()
    try {
      const crashed = await registry.get('mcp__faults__crash')?.execute({}, runContext(cwd))
      expect(crashed?.isError).toBe(true)
      expect(crashed?.content).toBe(
        'The MCP server "faults" is not available (the server exited: fault-server: segfault in handler), so mcp__faults__crash did not run.\n' +
          'Last lines of its stderr:\n  fault-server: segfault in handler\n' +
          'Try the call once more (dsh restarts the server once); if it fails again, continue without this tool and tell the user.',
      )
      expect(warnings).toContain('warning: MCP server "faults" failed: the server exited: fault-server: segfault in handler; its tools are not available (dsh mcp get faults shows its stderr)')
      const again = await registry.get('mcp__faults__ok')?.execute({}, runContext(cwd))
      expect(again).toEqual({ content: 'ok' })
      expect(hub.status()[0]?.state).toEqual({ kind: 'connected', tools: 4 })
    } finally {
      await hub.close()
    }
  })

  it('cancels a call that does not answer', async () => {
    const cwd = await root()
    const { hub, registry } = hubOf([stdioEntry('faults', faultServer)], cwd)
    hub.start()
    await hub.ready()
    try {
      const controller = new AbortController()
      const pending = registry.get('mcp__faults__hang')?.execute({}, runContext(cwd, controller.signal))
      controller.abort(new Error('cancelled by the user'))
      await expect(pending).rejects.toThrow()
      expect(await registry.get('mcp__faults__ok')?.execute({}, runContext(cwd))).toEqual({ content: 'ok' })
    } finally {
      await hub.close()
    }
  })
})
