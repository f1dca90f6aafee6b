// resolve, stat, lstat and listDir on real temp trees: links, missing paths, errors vs absence.
import { copyFileSync, linkSync, lstatSync, statSync, symlinkSync, utimesSync } from 'node:fs'
import { isAbsolute, relative, sep } from 'node:path'
import { tempTree, type TempTree } from '@dsh/testkit'
import * as fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isInside } from '../src/canonical-path.ts'
import { createLocalFileSystem } from '../src/index.ts'

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({ 'real/a.txt': 'A', 'real/sub/': null, 'other/': null })
  symlinkSync(tree.path('real'), tree.path('alias'))
  symlinkSync(tree.path('real/a.txt'), tree.path('link.txt'))
})
afterEach(async () => {
  await tree.dispose()
})

const fs = () => createLocalFileSystem({ writableRoots: [tree.root] })
/** The later of mtime and ctime in milliseconds (microsecond precision), the oracle of `changedAtMs`. */
const latestMs = (s: { mtimeNs: bigint; ctimeNs: bigint }): number => Number((s.mtimeNs > s.ctimeNs ? s.mtimeNs : s.ctimeNs) / 1000n) / 1000

describe('resolve', () => {
  it('normalises a relative path against cwd and follows links', async () => {
    const target = await fs().resolve('./alias/../alias/a.txt', { cwd: tree.root })
    expect(target).toEqual({ path: tree.path('real/a.txt'), displayPath: 'alias/a.txt' })
  })

  it('resolves a missing path through its deepest existing ancestor', async () => {
    const target = await fs().resolve('alias/new/dir/file.md', { cwd: tree.root })
    expect(target.path).toBe(tree.path('real/new/dir/file.md'))
  })

  it('treats a file used as a directory as missing', async () => {
    const target = await fs().resolve('link.txt/child', { cwd: tree.root })
    expect(target.path).toBe(tree.path('real/a.txt/child'))
  })

  it('rejects a relative cwd and an aborted signal', async () => {
    await expect(fs().resolve('a', { cwd: 'relative' })).rejects.toMatchObject({ code: 'FS_IO' })
    const signal = AbortSignal.abort()
    await expect(fs().resolve('a', { cwd: tree.root, signal })).rejects.toMatchObject({ code: 'FS_ABORTED' })
  })

  it('reports a link loop as FS_IO, not as missing', async () => {
    symlinkSync(tree.path('loop-b'), tree.path('loop-a'))
    symlinkSync(tree.path('loop-a'), tree.path('loop-b'))
    await expect(fs().resolve('loop-a', { cwd: tree.root })).rejects.toMatchObject({ code: 'FS_IO' })
    await expect(fs().stat(tree.path('loop-a'))).rejects.toMatchObject({ code: 'FS_IO' })
  })
})

describe('stat and lstat', () => {
  it('follows links for stat and not for lstat', async () => {
    const port = fs()
    expect(await port.stat(tree.path('link.txt'))).toMatchObject({ type: 'file', size: 1 })
    expect(await port.lstat(tree.path('link.txt'))).toMatchObject({ type: 'symlink' })
    expect(await port.stat(tree.path('alias'))).toMatchObject({ type: 'directory' })
    expect((await port.stat(tree.path('alias')))?.size).toBeUndefined()
  })

  it('returns undefined for ENOENT and ENOTDIR', async () => {
    const port = fs()
    expect(await port.stat(tree.path('missing'))).toBeUndefined()
    expect(await port.stat(tree.path('real/a.txt/below'))).toBeUndefined()
    expect(await port.lstat(tree.path('missing'))).toBeUndefined()
  })

  it('changes the version when content changes', async () => {
    const port = fs()
    const before = await port.stat(tree.path('real/a.txt'))
    await tree.write({ 'real/a.txt': 'AB' })
    const after = await port.stat(tree.path('real/a.txt'))
    expect(after?.version).not.toBe(before?.version)
    expect(after?.version).toMatch(/^\d+:\d+:2:\d+:\d+$/)
  })

  it('reports changedAtMs as the later of mtime and ctime, from the same stats', async () => {
    const port = fs()
    const file = tree.path('real/a.txt')
    expect((await port.stat(file))?.changedAtMs).toBe(latestMs(statSync(file, { bigint: true })))
    expect((await port.stat(tree.path('real')))?.changedAtMs).toBe(latestMs(statSync(tree.path('real'), { bigint: true })))
    // lstat of a link reports the link's own timestamps, stat the target's.
    expect((await port.lstat(tree.path('link.txt')))?.changedAtMs).toBe(latestMs(lstatSync(tree.path('link.txt'), { bigint: true })))
    expect((await port.stat(tree.path('link.txt')))?.changedAtMs).toBe(latestMs(statSync(file, { bigint: true })))
    // A back-dated mtime does not hide a fresh change (ctime moves with it); a future one shows.
    const before = Date.now()
    utimesSync(file, new Date('2001-01-01T00:00:00Z'), new Date('2001-01-01T00:00:00Z'))
    expect((await port.stat(file))?.changedAtMs).toBeGreaterThanOrEqual(before - 1000)
    const future = new Date(Date.now() + 86_400_000)
    utimesSync(file, future, future)
    expect((await port.stat(file))?.changedAtMs).toBeCloseTo(future.getTime(), 0)
  })

  it('reports one nodeId for every path to the same file (link, hard link) and another for a copy', async () => {
    const port = fs()
    const file = tree.path('real/a.txt')
    linkSync(file, tree.path('hard.txt'))
    copyFileSync(file, tree.path('copy.txt'))
    const own = statSync(file, { bigint: true })
    const id = (await port.stat(file))?.nodeId
    expect(id).toBe(`${own.dev}:${own.ino}`)
    expect((await port.stat(tree.path('link.txt')))?.nodeId).toBe(id)
    expect((await port.stat(tree.path('alias/a.txt')))?.nodeId).toBe(id)
    expect((await port.stat(tree.path('hard.txt')))?.nodeId).toBe(id)
    expect((await port.lstat(tree.path('hard.txt')))?.nodeId).toBe(id)
    expect((await port.stat(tree.path('copy.txt')))?.nodeId).not.toBe(id)
    // lstat of a link is the link itself, a node of its own.
    expect((await port.lstat(tree.path('link.txt')))?.nodeId).not.toBe(id)
  })

  it('reports a dangling link as absent through stat but present through lstat', async () => {
    symlinkSync(tree.path('nowhere'), tree.path('dangling'))
    expect(await fs().stat(tree.path('dangling'))).toBeUndefined()
    expect(await fs().lstat(tree.path('dangling'))).toMatchObject({ type: 'symlink' })
  })
})

describe('listDir', () => {
  it('lists sorted entries with links reported as symlink', async () => {
    expect(await fs().listDir(tree.root)).toEqual([
      { name: 'alias', type: 'symlink' },
      { name: 'link.txt', type: 'symlink' },
      { name: 'other', type: 'directory' },
      { name: 'real', type: 'directory' },
    ])
  })

  it('rejects a missing directory and a file', async () => {
    await expect(fs().listDir(tree.path('missing'))).rejects.toMatchObject({ code: 'FS_NOT_FOUND' })
    await expect(fs().listDir(tree.path('real/a.txt'))).rejects.toMatchObject({ code: 'FS_NOT_A_FILE' })
  })
})

describe('containment', () => {
  it('agrees with a path.relative oracle and respects component boundaries', () => {
    const segment = fc.constantFrom('a', 'b', 'a-x', '..foo', 'ab')
    const path = fc.array(segment, { minLength: 0, maxLength: 4 }).map((parts) => `/${parts.join('/')}`)
    fc.assert(
      fc.property(path, path, (root, target) => {
        const rel = relative(root, target)
        const oracle = rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))
        expect(isInside(root, target)).toBe(oracle)
      }),
    )
    expect(isInside('/repo', '/repo-x/file')).toBe(false)
    expect(isInside('/repo', '/repo/..foo')).toBe(true)
    expect(isInside('/', '/anything')).toBe(true)
  })
})
