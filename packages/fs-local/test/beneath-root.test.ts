// The walk beneath a root: a component that is a link when the walk reaches it is refused (the
// canonical check happened earlier, so this is what a swap looks like), links the canonical path
// resolved inside the roots still work, and a writable root that does not exist yet is created.
import { readFileSync, readdirSync, symlinkSync } from 'node:fs'
import { tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { writeAtomically } from '../src/atomic-write.ts'
import { createLocalFileSystem } from '../src/index.ts'

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({ 'root/real/keep.txt': 'x', 'outside/': null })
})
afterEach(async () => {
  await tree.dispose()
})

it('refuses a directory component that is a link when the walk reaches it, naming it', async () => {
  symlinkSync(tree.path('outside'), tree.path('root/swapped'))
  const bytes = Buffer.from('payload')
  await expect(writeAtomically(tree.path('root'), tree.path('root/swapped/f.txt'), bytes, { displayPath: 'swapped/f.txt' })).rejects.toMatchObject({
    code: 'FS_OUTSIDE_ROOTS',
    message: 'the directory "swapped" on the way is a symbolic link or not a directory (it may have just been replaced); refusing to write through it: swapped/f.txt',
  })
  expect(readdirSync(tree.path('outside'))).toEqual([])
})

it('still writes through a link that leads inside the roots (the canonical path is walked)', async () => {
  symlinkSync(tree.path('root/real'), tree.path('root/alias'))
  const port = createLocalFileSystem({ writableRoots: [tree.path('root')] })
  await port.writeText(tree.path('root/alias/new/f.txt'), 'hello')
  expect(readFileSync(tree.path('root/real/new/f.txt'), 'utf8')).toBe('hello')
})

it('creates a writable root that does not exist yet, and its parents', async () => {
  const root = tree.path('root/docs/level')
  const port = createLocalFileSystem({ writableRoots: [root] })
  await port.writeText(`${root}/plan.md`, 'plan')
  expect(readFileSync(`${root}/plan.md`, 'utf8')).toBe('plan')
})
