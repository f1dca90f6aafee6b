// ACP with client file access: grep and glob read from the disk (rg), never one
// fs/read_text_file request per file; reads of one file still go through the editor.
import { afterEach, describe, expect, it } from 'vitest'
import { readFileSync, writeFileSync } from 'node:fs'
import { tempTree, type TempTree } from '@dsh/testkit'
import { agentSide, withClient, type AcpSide } from './acp-harness.ts'

let tree: TempTree
let side: AcpSide | undefined
afterEach(async () => {
  await side?.dispose()
  side = undefined
  await tree?.dispose()
})

describe('search with client file access', () => {
  it('grep and glob send no fs/read_text_file request, however many files they search', async () => {
    const files = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`work/src/f${i}.ts`, i % 2 === 0 ? 'const TODO = 1\n' : 'nothing\n']))
    tree = await tempTree({ ...files, 'work/doc.txt': 'saved TODO\n' })
    side = await agentSide({
      dshHome: tree.path('home'),
      scripts: {
        [tree.path('work')]: {
          responses: [
            { toolCalls: [{ name: 'grep', arguments: { pattern: 'TODO', output_mode: 'count' } }, { name: 'glob', arguments: { pattern: '*.ts' } }, { name: 'read', arguments: { file_path: 'doc.txt' } }] },
            { text: 'ok' },
          ],
        },
      },
    })
    const { seen } = await withClient(side.app, { buffers: { read: (path) => readFileSync(path, 'utf8'), write: (path, content) => writeFileSync(path, content) } }, async (ctx) => {
      const created = await ctx.request('session/new', { cwd: tree.path('work'), mcpServers: [] })
      await ctx.request('session/prompt', { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'find the TODOs' }] })
    })
    expect(seen.reads).toEqual([tree.path('work/doc.txt')])
    const next = JSON.stringify(side.requests[1]?.messages)
    expect(next).toContain('src/f0.ts:1')
    expect(next).toContain('doc.txt:1')
    expect(next).toContain('src/f59.ts')
  })
})
