// readSmallFile against real special files: a FIFO (no writer) and a link to /dev/zero come back at
// once as not-file instead of blocking or reading forever, a link is refused without `follow`, a
// file over the limit is too-large, a regular file is read whole, a missing one is absent.
import { execFileSync } from 'node:child_process'
import { symlinkSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { readSmallFile, readSmallText } from '../src/index.ts'

let tree: TempTree | undefined
afterEach(async () => {
  await tree?.dispose()
  tree = undefined
})

describe('readSmallFile', () => {
  it('reads a regular file whole and says what else stands at a name, without blocking', async () => {
    tree = await tempTree({ 'a.json': '{"x":1}\n', 'dir/': null })
    execFileSync('mkfifo', [tree.path('fifo')])
    symlinkSync('/dev/zero', tree.path('zero'))
    symlinkSync(tree.path('a.json'), tree.path('link.json'))
    writeFileSync(tree.path('big'), 'x'.repeat(2048))
    const read = readSmallFile(tree.path('a.json'), { maxBytes: 1024 })
    expect(read.kind === 'file' ? read.bytes.toString() : read.kind).toBe('{"x":1}\n')
    expect(readSmallFile(tree.path('fifo'), { maxBytes: 1024 }).kind).toBe('not-file')
    expect(readSmallFile(tree.path('zero'), { maxBytes: 1024 }).kind).toBe('not-file')
    expect(readSmallFile(tree.path('dir'), { maxBytes: 1024 }).kind).toBe('not-file')
    expect(readSmallFile(tree.path('big'), { maxBytes: 1024 })).toEqual({ kind: 'too-large', size: 2048 })
    expect(readSmallFile(tree.path('missing'), { maxBytes: 1024 })).toEqual({ kind: 'absent' })
    expect(readSmallFile(tree.path('a.json/inside'), { maxBytes: 1024 })).toEqual({ kind: 'absent' })
    expect(readSmallText(tree.path('link.json'), { maxBytes: 1024 })).toBe('{"x":1}\n')
    expect(readSmallFile(tree.path('link.json'), { maxBytes: 1024, follow: false }).kind).toBe('not-file')
  })
})
