// What a write's diff reads before the call: the file's text, nothing for a FIFO or a link to a
// device (a plain read would hang the chat on them), undefined above the size limit, and '' for a
// file that is not there yet.
import { execFileSync } from 'node:child_process'
import { symlinkSync, writeFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { contentBefore, maxBeforeBytes } from '../src/screen/edit-preview.ts'

let tree: TempTree | undefined
afterEach(async () => {
  await tree?.dispose()
  tree = undefined
})

const write = (file: string): string => JSON.stringify({ file_path: file, content: 'new\n' })

describe('contentBefore', () => {
  it('reads a regular file and stops at once at a FIFO, a device link or a large file', async () => {
    tree = await tempTree({ 'repo/a.txt': 'old\n' })
    execFileSync('mkfifo', [tree.path('repo/pipe')])
    symlinkSync('/dev/zero', tree.path('repo/zero'))
    writeFileSync(tree.path('repo/big'), 'x'.repeat(maxBeforeBytes + 1))
    const cwd = tree.path('repo')
    expect(contentBefore('write', write('a.txt'), cwd)).toBe('old\n')
    expect(contentBefore('write', write('pipe'), cwd)).toBeUndefined()
    expect(contentBefore('write', write('zero'), cwd)).toBeUndefined()
    expect(contentBefore('write', write('big'), cwd)).toBeUndefined()
    expect(contentBefore('write', write('new.txt'), cwd)).toBe('')
  })
})
