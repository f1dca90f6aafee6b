// The composed test host runs real tools on a temp tree under a scripted model.
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { composeTestHost, tempTree, type TempTree } from '../src/index.ts'

let tree: TempTree
afterEach(async () => tree?.dispose())

describe('composeTestHost', () => {
  it('reads and edits real files and records every request', async () => {
    tree = await tempTree({ 'ws/a.txt': 'one\n' })
    const testHost = await composeTestHost({ dshHome: tree.path('home'), writableRoots: [tree.path('ws')] })
    const { host, requests } = testHost
    const agent = await testHost.start({
      cwd: tree.path('ws'),
      script: { responses: [{ toolCalls: [{ name: 'edit', arguments: { file_path: 'a.txt', old_string: 'one', new_string: 'two' } }] }, { text: 'edited' }] },
    })
    expect((await agent.prompt('change it')).finalText).toBe('edited')
    expect(readFileSync(tree.path('ws/a.txt'), 'utf8')).toBe('two\n')
    expect(requests).toHaveLength(2)
    expect(requests[1]?.messages.find((m) => m.role === 'tool')?.content).toBe('Edited a.txt: replaced 1 occurrence.')
    await host.dispose()
  })
})
