// holdAfter / releaseFile: the stream holds after that many text pieces until the file exists, or
// until the call is cancelled when no file is named; what was streamed before the hold stays.
import { writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import type { ModelRequest, ModelStreamEvent } from '@dsh/contracts'
import { tempTree, type TempTree } from '@dsh/testkit'
import { createScriptedProvider } from '../src/index.ts'

let tree: TempTree | undefined
afterEach(async () => tree?.dispose())

// oxlint-disable-next-line typescript/no-unsafe-type-assertion -- the scripted provider reads only turn and step
const request = { turn: 1, step: 1 } as ModelRequest
// Two 16-character pieces.
const text = 'first piece 16chsecond piece 16c'

describe('holding a scripted answer', () => {
  it('streams the pieces before the hold, then the rest once the release file exists', async () => {
    tree = await tempTree()
    const release = tree.path('release')
    const stream = createScriptedProvider({ responses: [{ text, holdAfter: 1, releaseFile: release }] }).stream(request, new AbortController().signal)[Symbol.asyncIterator]()
    expect(await stream.next()).toEqual({ done: false, value: { type: 'text', text: 'first piece 16ch' } })
    const second = stream.next()
    let arrived = false
    void second.then(() => (arrived = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(arrived).toBe(false)
    writeFileSync(release, '')
    expect(await second).toEqual({ done: false, value: { type: 'text', text: 'second piece 16c' } })
  })

  it('without a release file only a cancel ends the hold', async () => {
    const controller = new AbortController()
    const seen: ModelStreamEvent[] = []
    const run = (async () => {
      for await (const event of createScriptedProvider({ responses: [{ text, holdAfter: 1 }] }).stream(request, controller.signal)) {
        seen.push(event)
        if (event.type === 'text') controller.abort()
      }
    })()
    await expect(run).rejects.toMatchObject({ name: 'AbortError' })
    expect(seen).toEqual([{ type: 'text', text: 'first piece 16ch' }])
  })
})
