// Which directories get a warning when added as a writable root: system trees, the home directory
// and what contains it, $DSH_HOME and what contains it; an ordinary project folder gets none, also
// one inside the home directory or under /tmp.
import { symlinkSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { tempTree, type TempTree } from '@dsh/testkit'
import { riskyRootReason, riskyRootWarning } from '../src/index.ts'

let tree: TempTree | undefined
afterEach(async () => {
  await tree?.dispose()
  tree = undefined
})

describe('riskyRootReason', () => {
  it('names system directories, the home directory, what contains it, and $DSH_HOME', async () => {
    tree = await tempTree({ 'home/me/.dsh/': null, 'home/me/work/lib/': null, 'other/': null })
    const context = { home: tree.path('home/me'), dshHome: tree.path('home/me/.dsh') }
    expect(riskyRootReason('/', context)).toBe('the root of the filesystem')
    expect(riskyRootReason('/etc', context)).toBe('a system directory (under /etc)')
    expect(riskyRootReason('/usr/local/bin', context)).toBe('a system directory (under /usr)')
    expect(riskyRootReason(tree.path('home/me'), context)).toBe('your home directory: every project, key and setting in it would be writable')
    expect(riskyRootReason(tree.path('home'), context)).toBe('a directory that contains your home directory')
    expect(riskyRootReason(tree.path('home/me/.dsh'), context)).toMatch(/^dsh's own state directory/)
    expect(riskyRootReason(tree.path('home/me/work/lib'), context)).toBeUndefined()
    expect(riskyRootReason(tree.path('other'), context)).toBeUndefined()
  })

  it('judges a link by where it leads', async () => {
    tree = await tempTree({ 'home/me/.dsh/': null, 'other/': null })
    symlinkSync(tree.path('home/me/.dsh'), tree.path('other/state'))
    const context = { home: tree.path('home/me'), dshHome: tree.path('home/me/.dsh') }
    expect(riskyRootWarning(tree.path('other/state'), context)).toBe(
      `warning: ${tree.path('other/state')} is dsh's own state directory ($DSH_HOME) or contains it: a command could rewrite the settings that decide what the agent may do; shell commands of every session in this project may write there`,
    )
  })
})
