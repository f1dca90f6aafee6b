// Per-session views (`withWritableRoots`): writes confined to a grant evaluated at every write,
// the refusal naming the grant's roots, roots added to one view only, and the port's own roots
// untouched by any view.
import { existsSync, mkdirSync, symlinkSync } from 'node:fs'
import { tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { FileSystemPort } from '@dsh/contracts'
import { createLocalFileSystem } from '../src/index.ts'

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({ 'a/': null, 'b/': null, 'extra/': null, 'shared/': null })
})
afterEach(async () => {
  await tree.dispose()
})

function viewOf(port: FileSystemPort, grant: () => readonly string[]): FileSystemPort {
  if (port.withWritableRoots === undefined) throw new Error('the local port offers views')
  return port.withWritableRoots(grant)
}

describe('session views', () => {
  it('confine writes to their own grant, whatever the port or another view allows', async () => {
    const port = createLocalFileSystem({ writableRoots: [tree.path('a'), tree.path('b')] })
    const viewA = viewOf(port, () => [tree.path('a'), tree.path('shared')])
    const viewB = viewOf(port, () => [tree.path('b')])
    await viewA.writeText(tree.path('a/x.txt'), 'x')
    await viewA.writeText(tree.path('shared/x.txt'), 'x')
    await expect(viewA.writeText(tree.path('b/x.txt'), 'x')).rejects.toMatchObject({ code: 'FS_OUTSIDE_ROOTS', message: `outside the writable roots (writable roots: ${tree.path('a')}, ${tree.path('shared')}): ${tree.path('b/x.txt')}` })
    await expect(viewB.editText(tree.path('a/x.txt'), { oldString: 'x', newString: 'y' })).rejects.toMatchObject({ code: 'FS_OUTSIDE_ROOTS' })
    await expect(viewB.writeText(tree.path('shared/y.txt'), 'y')).rejects.toMatchObject({ code: 'FS_OUTSIDE_ROOTS' })
    expect(existsSync(tree.path('b/x.txt'))).toBe(false)
    expect(port.writableRoots()).toEqual([tree.path('a'), tree.path('b')])
    await port.writeText(tree.path('b/by-port.txt'), 'ok')
  })

  it('evaluate the grant at every write, canonically (a link to a granted root is granted, a link out is not)', async () => {
    const port = createLocalFileSystem({ writableRoots: [] })
    let roots: string[] = [tree.path('a')]
    const view = viewOf(port, () => roots)
    symlinkSync(tree.path('a'), tree.path('a-link'))
    symlinkSync(tree.path('b'), tree.path('a/escape'))
    await view.writeText(tree.path('a-link/via-link.txt'), 'x')
    await expect(view.writeText(tree.path('a/escape/out.txt'), 'x')).rejects.toMatchObject({ code: 'FS_OUTSIDE_ROOTS' })
    roots = [tree.path('b')]
    await expect(view.writeText(tree.path('a/later.txt'), 'x')).rejects.toMatchObject({ code: 'FS_OUTSIDE_ROOTS' })
    await view.writeText(tree.path('b/now.txt'), 'x')
    expect(view.writableRoots()).toEqual([tree.path('b')])
  })

  it('list the grant (canonical, deduplicated, relative entries left out) plus roots added to the view only', async () => {
    const port = createLocalFileSystem({ writableRoots: [tree.path('a')] })
    mkdirSync(tree.path('real'))
    symlinkSync(tree.path('real'), tree.path('alias'))
    const view = viewOf(port, () => [tree.path('alias'), tree.path('real'), 'relative/dir'])
    const release = view.addWritableRoot(tree.path('extra'))
    expect(view.writableRoots()).toEqual([tree.path('real'), tree.path('extra')])
    expect(port.writableRoots()).toEqual([tree.path('a')])
    await view.writeText(tree.path('extra/e.txt'), 'e')
    release()
    await expect(view.writeText(tree.path('extra/f.txt'), 'f')).rejects.toMatchObject({ code: 'FS_OUTSIDE_ROOTS' })
  })
})
