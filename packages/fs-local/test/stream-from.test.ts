// streamTextFrom: a stream that starts at a byte offset (read's line index), with the opened version.
import { tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { FsVersion } from '@dsh/contracts'
import { createLocalFileSystem } from '../src/index.ts'

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({ 'a.txt': 'café\nsecond line\n', 'bom.txt': new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('x\n')]) })
})
afterEach(async () => {
  await tree.dispose()
})

async function text(stream: AsyncIterable<string> | undefined): Promise<string> {
  if (stream === undefined) throw new Error('fs-local has streamTextFrom')
  let out = ''
  for await (const chunk of stream) out += chunk
  return out
}

describe('streamTextFrom', () => {
  it('starts at the byte offset, counts maxBytes from there, and reports the opened version', async () => {
    const fs = createLocalFileSystem({ writableRoots: [tree.root] })
    const path = tree.path('a.txt')
    let opened: FsVersion | undefined
    expect(await text(fs.streamTextFrom?.(path, { startByte: 6, onOpened: (version) => (opened = version) }))).toBe('second line\n')
    expect(opened).toBe((await fs.stat(path))?.version)
    expect(await text(fs.streamTextFrom?.(path, { startByte: 0 }))).toBe('café\nsecond line\n')
    expect(await text(fs.streamTextFrom?.(path, { startByte: 18 }))).toBe('')
    await expect(text(fs.streamTextFrom?.(path, { startByte: 6, maxBytes: 11 }))).rejects.toMatchObject({ code: 'FS_TOO_LARGE' })
    expect(await text(fs.streamTextFrom?.(path, { startByte: 6, maxBytes: 12 }))).toBe('second line\n')
    // Inside a character: the decoder refuses the continuation byte.
    await expect(text(fs.streamTextFrom?.(path, { startByte: 4 }))).rejects.toMatchObject({ code: 'FS_NOT_UTF8' })
  })

  it('strips a BOM only at byte 0', async () => {
    const fs = createLocalFileSystem({ writableRoots: [tree.root] })
    expect(await text(fs.streamTextFrom?.(tree.path('bom.txt'), { startByte: 0 }))).toBe('x\n')
  })
})
