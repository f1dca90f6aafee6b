// Text decoding and read errors: UTF-8 only (BOM stripped), UTF-16 and invalid bytes rejected, abort.
import { isUtf8 } from 'node:buffer'
import { writeFileSync } from 'node:fs'
import { tempTree, type TempTree } from '@dsh/testkit'
import * as fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createLocalFileSystem } from '../src/index.ts'
import { rejection } from './helpers.ts'

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({ 'dir/': null })
})
afterEach(async () => {
  await tree.dispose()
})

const fs = () => createLocalFileSystem({ writableRoots: [tree.root] })
const utf16le = (text: string) => new Uint8Array([0xff, 0xfe, ...Buffer.from(text, 'utf16le')])
const utf16be = (text: string) => new Uint8Array([0xfe, 0xff, ...Buffer.from(text, 'utf16le').swap16()])

describe('encodings', () => {
  it('strips a leading UTF-8 BOM', async () => {
    await tree.write({ 'bom.md': new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('# Title\n')]) })
    expect((await fs().readText(tree.path('bom.md'))).text).toBe('# Title\n')
  })

  it('rejects UTF-16 LE and BE files instead of returning mojibake', async () => {
    await tree.write({ 'le.md': utf16le('Hello'), 'be.md': utf16be('Hello') })
    await expect(fs().readText(tree.path('le.md'))).rejects.toMatchObject({ code: 'FS_NOT_UTF8' })
    await expect(fs().readText(tree.path('be.md'))).rejects.toMatchObject({ code: 'FS_NOT_UTF8' })
  })

  it('rejects a truncated multi-byte sequence at end of file', async () => {
    await tree.write({ 'cut.md': new Uint8Array([0x61, 0xe2, 0x82]) })
    await expect(fs().readText(tree.path('cut.md'))).rejects.toMatchObject({ code: 'FS_NOT_UTF8' })
  })

  it('decodes a character split across the 64 KiB chunk boundary', async () => {
    const text = `${'a'.repeat(65_535)}€ and 😀 after`
    await tree.write({ 'split.md': text })
    expect((await fs().readText(tree.path('split.md'))).text).toBe(text)
  })

  it('accepts exactly the valid UTF-8 byte sequences, wherever chunks split them', async () => {
    const prefix = Buffer.alloc(65_534, 0x61)
    const port = fs()
    const file = tree.path('random.bin')
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 12 }), async (bytes) => {
        const content = Buffer.concat([prefix, bytes])
        writeFileSync(file, content)
        const result = port.readText(file).then(
          (r) => r.text === content.toString('utf8'),
          (error: { code?: string }) => error.code,
        )
        expect(await result).toBe(isUtf8(content) ? true : 'FS_NOT_UTF8')
      }),
      { numRuns: 60 },
    )
  })
})

describe('read errors', () => {
  it('reports a directory, a missing file and a relative path', async () => {
    await expect(fs().readText(tree.path('dir'))).rejects.toMatchObject({ code: 'FS_NOT_A_FILE' })
    await expect(fs().readText(tree.path('nope.md'))).rejects.toMatchObject({ code: 'FS_NOT_FOUND' })
    await expect(fs().readText('relative.md')).rejects.toMatchObject({ code: 'FS_IO' })
  })

  it('messages are one line and name the path', async () => {
    const weird = tree.path('line\nbreak.md')
    const error = await rejection(fs().readText(weird))
    expect(error).toMatchObject({ code: 'FS_NOT_FOUND', path: weird })
    expect(error.message).not.toContain('\n')
    expect(error.message).toContain('line\\x0abreak.md')
  })

  it('returns the version of the opened file', async () => {
    await tree.write({ 'v.md': 'one' })
    const port = fs()
    const read = await port.readText(tree.path('v.md'))
    expect(read.version).toBe((await port.stat(tree.path('v.md')))?.version)
  })
})

describe('abort', () => {
  it('rejects at once with an already aborted signal', async () => {
    await tree.write({ 'a.md': 'text' })
    const signal = AbortSignal.abort()
    await expect(fs().readText(tree.path('a.md'), { signal })).rejects.toMatchObject({ code: 'FS_ABORTED' })
  })

  it('stops between chunks when aborted mid-stream', async () => {
    await tree.write({ 'long.md': 'x'.repeat(1024 * 1024) })
    const controller = new AbortController()
    const chunks: string[] = []
    const read = async () => {
      for await (const chunk of fs().streamText(tree.path('long.md'), { signal: controller.signal })) {
        chunks.push(chunk)
        controller.abort()
      }
    }
    await expect(read()).rejects.toMatchObject({ code: 'FS_ABORTED' })
    expect(chunks).toHaveLength(1)
  })
})
