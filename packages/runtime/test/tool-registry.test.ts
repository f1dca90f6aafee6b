// The tools offered with every request: converted once per tool, shared by the requests of a
// turn, and up to date after a registration or a removal.
import { z } from 'zod'
import { afterEach, describe, expect, it } from 'vitest'
import type { ToolDefinition } from '@dsh/contracts'
import { ToolRegistry } from '../src/index.ts'
import { agentWith, fixture, type Fixture } from './helpers.ts'

let f: Fixture
afterEach(async () => f?.dispose())

const noteTool: ToolDefinition<{ line: string }> = {
  name: 'note',
  description: 'Notes a line.',
  parameters: z.strictObject({ line: z.string().describe('The line') }),
  execute: () => Promise.resolve({ content: 'noted' }),
}

const names = (tools: readonly { function: { name: string } }[] | undefined): string[] => (tools ?? []).map((tool) => tool.function.name)

describe('wire tools', () => {
  it('every request of a turn carries the same converted tool list', async () => {
    f = await fixture()
    const agent = await agentWith(f, { responses: [{ toolCalls: [{ name: 'echo', arguments: { text: 'a' } }] }, { toolCalls: [{ name: 'echo', arguments: { text: 'b' } }] }, { text: 'done' }] })
    await agent.prompt('go')
    const [first, ...rest] = f.requests
    expect(names(first?.tools)).toEqual(['echo', 'hang'])
    for (const request of rest) expect(request.tools).toBe(first?.tools)
  })

  it('a tool registered or removed between turns is in, or out of, the next request', async () => {
    f = await fixture()
    const agent = await agentWith(f, { responses: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] })
    await agent.prompt('first')
    const remove = f.host.tools.register(noteTool)
    await agent.prompt('second')
    remove()
    await agent.prompt('third')
    expect(f.requests.map((request) => names(request.tools))).toEqual([['echo', 'hang'], ['echo', 'hang', 'note'], ['echo', 'hang']])
    expect(f.requests[1]?.tools?.[2]).toEqual({
      type: 'function',
      function: { name: 'note', description: 'Notes a line.', parameters: { type: 'object', properties: { line: { type: 'string', description: 'The line' } }, required: ['line'], additionalProperties: false } },
    })
  })

  it('a tool keeps its converted form when the set changes, and again when registered anew', () => {
    const registry = new ToolRegistry()
    const remove = registry.register(noteTool)
    const [converted] = registry.wireTools()
    registry.register({ ...noteTool, name: 'other' })
    expect(registry.wireTools()[0]).toBe(converted)
    remove()
    registry.register(noteTool)
    expect(registry.wireTools().map((tool) => tool.function.name)).toEqual(['other', 'note'])
    expect(registry.wireTools()[1]).toBe(converted)
  })

  it('a layered registry offers the base tools first, then its own, follows changes of the base and refuses a name the base has', async () => {
    const base = new ToolRegistry()
    base.register(noteTool)
    const layered = new ToolRegistry({ base })
    const removeOwn = layered.register({ ...noteTool, name: 'own' })
    expect(layered.wireTools().map((tool) => tool.function.name)).toEqual(['note', 'own'])
    expect(layered.wireTools()).toBe(layered.wireTools())
    const removeLater = base.register({ ...noteTool, name: 'later' })
    expect(layered.wireTools().map((tool) => tool.function.name)).toEqual(['note', 'later', 'own'])
    expect(base.wireTools().map((tool) => tool.function.name)).toEqual(['note', 'later'])
    expect(() => layered.register(noteTool)).toThrow(/already registered/)
    expect(layered.get('note')).toBe(noteTool)
    expect(base.get('own')).toBeUndefined()
    removeLater()
    removeOwn()
    expect(layered.list().map((tool) => tool.name)).toEqual(['note'])
    const gate: { release?: () => void } = {}
    const pending = new Promise<void>((resolve) => (gate.release = resolve))
    base.addPendingSource((name) => (name === 'slow' ? pending : undefined))
    let settled = false
    const waiting = layered.settle('slow').then(() => (settled = true))
    await Promise.resolve()
    expect(settled).toBe(false)
    gate.release?.()
    await waiting
    expect(settled).toBe(true)
  })
})
