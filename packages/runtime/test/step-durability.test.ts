// When the log reaches the disk during a turn: a step's flush runs while the next step prepares
// and calls the model, the next step's tools wait for it, and the turn ends flushed.
import { z } from 'zod'
import { afterEach, describe, expect, it } from 'vitest'
import type { ToolDefinition } from '@dsh/contracts'
import { createScriptedProvider } from '@dsh/llm-scripted'
import { tempTree, type TempTree } from '@dsh/testkit'
import { createHost, nodeFileIo, type Host, type SessionFileIo } from '../src/index.ts'

let tree: TempTree
let host: Host | undefined
afterEach(async () => {
  await host?.dispose()
  await tree?.dispose()
})

describe('step durability', () => {
  it('a tool runs only after the steps before it are flushed; the model call does not wait', async () => {
    tree = await tempTree({ 'work/': null })
    const order: string[] = []
    // Each background flush takes a while, so anything that does not wait for it overtakes it.
    const io: SessionFileIo = {
      writeSync: nodeFileIo.writeSync,
      fdatasyncSync: (fd) => {
        order.push('flush now')
        nodeFileIo.fdatasyncSync(fd)
      },
      fdatasync: (fd, done) => {
        order.push('flush started')
        setTimeout(() => {
          order.push('flush done')
          nodeFileIo.fdatasync(fd, done)
        }, 30)
      },
    }
    const mark: ToolDefinition<{ text: string }> = {
      name: 'mark',
      description: 'Marks the order.',
      parameters: z.object({ text: z.string() }),
      execute: (args) => {
        order.push(`tool ${args.text}`)
        return Promise.resolve({ content: 'ok' })
      },
    }
    host = await createHost({ dshHome: tree.path('home'), tools: [mark], log: () => undefined, sessionIo: io })
    const provider = createScriptedProvider({ responses: [{ toolCalls: [{ name: 'mark', arguments: { text: '1' } }] }, { toolCalls: [{ name: 'mark', arguments: { text: '2' } }] }, { text: 'done' }] })
    const agent = await host.startAgent({ cwd: tree.path('work'), provider, onRequest: () => order.push('request') })
    expect(await agent.prompt('go')).toMatchObject({ reason: 'completed', finalText: 'done' })
    expect(order).toEqual(['flush now', 'request', 'tool 1', 'flush started', 'request', 'flush done', 'tool 2', 'flush started', 'request', 'flush now'])
  })
})
