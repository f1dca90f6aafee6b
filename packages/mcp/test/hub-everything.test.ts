// The hub against the real server-everything over stdio: tool names and order, a call's text,
// structured content, images described, isError, the minimal environment, and the process ending.
import { afterEach, describe, expect, it } from 'vitest'
import { isProcessAlive, tempTree, type TempTree } from '@dsh/testkit'
import { hubOf, serverScript, stdioEntry, runContext } from './servers.ts'

const trees: TempTree[] = []
afterEach(async () => {
  for (const tree of trees.splice(0)) await tree.dispose()
})


describe('server-everything over stdio', () => {
  it('offers its tools as mcp__everything__<tool>, sorted, and runs them', async () => {
    const tree = await tempTree()
    trees.push(tree)
    const { hub, registry, warnings } = hubOf([stdioEntry('everything', serverScript('server-everything'), [], { SECRET_FOR_TEST: 'listed' })], tree.root)
    const previous = process.env.FAKE_API_KEY
    process.env.FAKE_API_KEY = 'must-not-leak'
    try {
      hub.start()
      await hub.ready()
      const names = registry.list().map((tool) => tool.name)
      expect(names).toContain('mcp__everything__echo')
      expect(names).toContain('mcp__everything__get-sum')
      expect(names).toEqual(names.toSorted())
      expect(warnings).toEqual([])
      const echo = registry.get('mcp__everything__echo')
      expect(echo?.origin).toEqual({ server: 'everything', tool: 'echo' })
      expect(echo?.wireParameters).toMatchObject({ type: 'object', properties: { message: { type: 'string' } } })
      const out = await echo?.execute({ message: 'hello' }, runContext(tree.root))
      expect(out).toEqual({ content: 'Echo: hello' })
      const image = await registry.get('mcp__everything__get-tiny-image')?.execute({}, runContext(tree.root))
      expect(image?.content).toMatch(/\[image: image\/png, \d+ bytes\]/)
      const env = await registry.get('mcp__everything__get-env')?.execute({}, runContext(tree.root))
      expect(env?.content).toContain('SECRET_FOR_TEST')
      expect(env?.content).not.toContain('must-not-leak')
      const bad = await registry.get('mcp__everything__get-sum')?.execute({ a: 'x' }, runContext(tree.root))
      expect(bad?.isError).toBe(true)
      const status = hub.status()
      expect(status.map((entry) => [entry.entry.name, entry.state.kind])).toEqual([['everything', 'connected']])
    } finally {
      if (previous === undefined) delete process.env.FAKE_API_KEY
      else process.env.FAKE_API_KEY = previous
      await hub.close()
    }
    expect(registry.list()).toEqual([])
  })

  it('ends the server process when closed', async () => {
    const tree = await tempTree()
    trees.push(tree)
    const { hub } = hubOf([stdioEntry('everything', serverScript('server-everything'))], tree.root)
    hub.start()
    await hub.ready()
    const pid = (await hubPid(hub)) ?? 0
    expect(isProcessAlive(pid)).toBe(true)
    await hub.close()
    expect(isProcessAlive(pid)).toBe(false)
  })
})

/** The server's pid, from its own report of process.pid is not available: read it from the process table by marker. */
async function hubPid(_hub: unknown): Promise<number | undefined> {
  const { readProcessTable } = await import('@dsh/tools')
  const table = readProcessTable() ?? []
  return table.find((entry) => entry.marker === `test.${process.pid}:mcp`)?.pid
}
