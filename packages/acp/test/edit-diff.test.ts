// What an editor's diff reads before an edit or a write: the file's text inside the session's
// directories, null for a file not there yet, and nothing for a FIFO or a link to a device (a plain
// read would hang `dsh acp` on them).
import { execFileSync } from 'node:child_process'
import { symlinkSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { captureBefore } from '../src/edit-diff.ts'

let tree: TempTree | undefined
afterEach(async () => {
  await tree?.dispose()
  tree = undefined
})

describe('captureBefore', () => {
  it('reads a regular file, says null for a new one, and never opens a FIFO or a device for reading', async () => {
    tree = await tempTree({ 'repo/a.txt': 'old\n' })
    execFileSync('mkfifo', [tree.path('repo/pipe')])
    symlinkSync('/dev/zero', tree.path('repo/zero'))
    const cwd = tree.path('repo')
    const before = (file: string) => captureBefore('write', JSON.stringify({ file_path: file, content: 'x' }), cwd, [cwd])?.text
    expect(before('a.txt')).toBe('old\n')
    expect(before('new.txt')).toBeNull()
    expect(before('pipe')).toBeUndefined()
    expect(before('zero')).toBeUndefined()
  })
})
