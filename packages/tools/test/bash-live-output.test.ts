// The bash tool hands what a command prints to `run.output` while it runs (the chat and the web
// page show it live), all of it in order even past the output cap, while the model's result stays
// the capped text with the exit code.
import { writeFileSync } from 'node:fs'
import { tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, describe, expect, it } from 'vitest'
import { bashTool } from '../src/index.ts'
import { call, runContext, seen } from './helpers.ts'

let tree: TempTree | undefined
afterEach(async () => {
  await tree?.dispose()
  tree = undefined
})

describe('live output of bash', () => {
  it('arrives before the command ends, in order, and the result is unchanged', async () => {
    tree = await tempTree({})
    let live = ''
    // The command waits for a file the test writes once it has seen the first line: streaming, not a final flush.
    const running = call(bashTool, { command: 'echo first; echo oops >&2; while [ ! -e go ]; do sleep 0.02; done; echo second' }, runContext({ cwd: tree.root, output: (text) => void (live += text) }))
    await expect.poll(() => live).toBe('first\noops\n')
    writeFileSync(tree.path('go'), '')
    const result = seen(await running)
    expect(live).toBe('first\noops\nsecond\n')
    expect(result).toEqual({ isError: false, content: 'first\noops\nsecond\n\n[Exit code: 0]' })
  })

  it('passes on all of a long output, whatever the result keeps', async () => {
    tree = await tempTree({})
    let live = ''
    const result = seen(await call(bashTool, { command: 'seq 1 60000' }, runContext({ cwd: tree.root, output: (text) => void (live += text) })))
    const all = Array.from({ length: 60000 }, (_, i) => `${i + 1}\n`).join('')
    expect(live).toBe(all)
    expect(result.content.length).toBeLessThan(all.length)
  })
})
