// Listings leave out the secret locations (and links into them) unless the listed directory is
// itself inside one, so a grep or glob over the home directory never walks into ~/.ssh.
import { symlinkSync } from 'node:fs'
import { tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { createLocalFileSystem } from '../src/index.ts'

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({ 'home/.ssh/id_ed25519': 'KEY', 'home/.sshx/a': 'a', 'home/notes.txt': 'n', 'repo/a.ts': 'x' })
  symlinkSync(tree.path('home/.ssh/id_ed25519'), tree.path('repo/key'))
  symlinkSync(tree.path('home/.ssh'), tree.path('repo/keys'))
})
afterEach(async () => {
  await tree.dispose()
})

it('leaves secret locations and links into them out of listings outside them', async () => {
  const port = createLocalFileSystem({ writableRoots: [], unlisted: [tree.path('home/.ssh')] })
  expect((await port.listDir(tree.path('home'))).map((entry) => entry.name)).toEqual(['.sshx', 'notes.txt'])
  expect((await port.listDir(tree.path('repo'))).map((entry) => entry.name)).toEqual(['a.ts'])
  expect((await port.listDir(tree.path('home/.ssh'))).map((entry) => entry.name)).toEqual(['id_ed25519'])
  const sessionView = port.withWritableRoots?.(() => [tree.path('repo')]) ?? port
  expect((await sessionView.listDir(tree.path('home'))).map((entry) => entry.name)).toEqual(['.sshx', 'notes.txt'])
  const plain = createLocalFileSystem({ writableRoots: [] })
  expect((await plain.listDir(tree.path('repo'))).map((entry) => entry.name)).toEqual(['a.ts', 'key', 'keys'])
})
