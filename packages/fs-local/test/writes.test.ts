// writeText: writable-root confinement (links resolved), atomic replacement, modes, refusals.
import { execFileSync, spawn } from 'node:child_process'
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createLocalFileSystem } from '../src/index.ts'
import { abortWhenTempExists } from './helpers.ts'

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({ 'ws/keep.txt': 'old', 'outside/secret.txt': 'secret', 'ws-x/': null })
})
afterEach(async () => {
  await tree.dispose()
})

const fs = () => createLocalFileSystem({ writableRoots: [tree.path('ws')] })
const read = (relative: string) => readFileSync(tree.path(relative), 'utf8')

describe('writable roots', () => {
  it('writes inside a root, creating parents, and reports created and bytes', async () => {
    const port = fs()
    const first = await port.writeText(tree.path('ws/deep/new/file.md'), 'héllo')
    expect(first).toMatchObject({ created: true, bytes: 6 })
    expect(read('ws/deep/new/file.md')).toBe('héllo')
    const second = await port.writeText(tree.path('ws/deep/new/file.md'), 'x')
    expect(second).toMatchObject({ created: false, bytes: 1 })
    expect(second.version).toBe((await port.stat(tree.path('ws/deep/new/file.md')))?.version)
  })

  it('refuses paths outside, including a sibling with the root as string prefix', async () => {
    const port = fs()
    await expect(port.writeText(tree.path('outside/new.txt'), 'x')).rejects.toMatchObject({ code: 'FS_OUTSIDE_ROOTS' })
    await expect(port.writeText(tree.path('ws-x/new.txt'), 'x')).rejects.toMatchObject({ code: 'FS_OUTSIDE_ROOTS' })
    await expect(port.writeText(tree.path('ws/../outside/n'), 'x')).rejects.toMatchObject({ code: 'FS_OUTSIDE_ROOTS' })
    expect(existsSync(tree.path('outside/new.txt'))).toBe(false)
  })

  it('allows a child whose name starts with two dots', async () => {
    await fs().writeText(tree.path('ws/..foo'), 'ok')
    expect(read('ws/..foo')).toBe('ok')
  })

  it('refuses to write through a symlinked directory that points outside', async () => {
    symlinkSync(tree.path('outside'), tree.path('ws/escape'))
    const port = fs()
    await expect(port.writeText(tree.path('ws/escape/new.txt'), 'x')).rejects.toMatchObject({
      code: 'FS_OUTSIDE_ROOTS',
      path: tree.path('ws/escape/new.txt'),
    })
    await expect(port.writeText(tree.path('ws/escape/secret.txt'), 'x')).rejects.toMatchObject({
      code: 'FS_OUTSIDE_ROOTS',
    })
    expect(existsSync(tree.path('outside/new.txt'))).toBe(false)
    expect(read('outside/secret.txt')).toBe('secret')
  })

  it('refuses a file link that points outside and writes through one that stays inside', async () => {
    symlinkSync(tree.path('outside/secret.txt'), tree.path('ws/leak.txt'))
    symlinkSync(tree.path('ws/keep.txt'), tree.path('ws/alias.txt'))
    const port = fs()
    await expect(port.writeText(tree.path('ws/leak.txt'), 'x')).rejects.toMatchObject({ code: 'FS_OUTSIDE_ROOTS' })
    await port.writeText(tree.path('ws/alias.txt'), 'new')
    expect(read('ws/keep.txt')).toBe('new')
    expect(await port.lstat(tree.path('ws/alias.txt'))).toMatchObject({ type: 'symlink' })
  })

  it('does not make the OS temp dir writable implicitly', async () => {
    const port = fs()
    expect(port.writableRoots()).toEqual([tree.path('ws')])
    await expect(port.writeText(join(tmpdir(), 'dsh-never.txt'), 'x')).rejects.toMatchObject({
      code: 'FS_OUTSIDE_ROOTS',
    })
  })

  it('adds roots with disposers that remove only their own registration', async () => {
    const port = fs()
    const first = port.addWritableRoot(tree.path('outside'))
    const second = port.addWritableRoot(tree.path('outside'))
    expect(port.writableRoots()).toEqual([tree.path('ws'), tree.path('outside')])
    first()
    first()
    await port.writeText(tree.path('outside/ok.txt'), 'x')
    second()
    expect(port.writableRoots()).toEqual([tree.path('ws')])
    await expect(port.writeText(tree.path('outside/no.txt'), 'x')).rejects.toMatchObject({ code: 'FS_OUTSIDE_ROOTS' })
    expect(() => port.addWritableRoot('relative')).toThrow(expect.objectContaining({ code: 'FS_IO' }))
  })
})

describe('atomic replacement', () => {
  it('keeps the mode of an existing file and leaves no temp files', async () => {
    chmodSync(tree.path('ws/keep.txt'), 0o751)
    await fs().writeText(tree.path('ws/keep.txt'), 'new')
    expect(statSync(tree.path('ws/keep.txt')).mode & 0o7777).toBe(0o751)
    expect(readdirSync(tree.path('ws'))).toEqual(['keep.txt'])
  })

  it('keeps the old content when the write fails after the temp file was written', async () => {
    const signal = abortWhenTempExists(tree.path('ws'))
    await expect(fs().writeText(tree.path('ws/keep.txt'), 'new content', { signal })).rejects.toMatchObject({
      code: 'FS_ABORTED',
    })
    expect(read('ws/keep.txt')).toBe('old')
    expect(readdirSync(tree.path('ws'))).toEqual(['keep.txt'])
  })
})

describe('refusals', () => {
  it('refuses FIFOs, directories and dangling links without hanging', async () => {
    execFileSync('mkfifo', [tree.path('ws/pipe')])
    symlinkSync(tree.path('ws/nowhere'), tree.path('ws/dangling'))
    const port = fs()
    await expect(port.writeText(tree.path('ws/pipe'), 'x')).rejects.toMatchObject({ code: 'FS_SPECIAL_FILE' })
    await expect(port.writeText(tree.path('ws'), 'x')).rejects.toMatchObject({ code: 'FS_NOT_A_FILE' })
    await expect(port.writeText(tree.path('ws/dangling'), 'x')).rejects.toMatchObject({ code: 'FS_NOT_A_FILE' })
    expect(existsSync(tree.path('ws/nowhere'))).toBe(false)
  })

  it('refuses relative paths and aborted signals', async () => {
    await expect(fs().writeText('ws/x', 'x')).rejects.toMatchObject({ code: 'FS_IO' })
    const signal = AbortSignal.abort()
    await expect(fs().writeText(tree.path('ws/x'), 'x', { signal })).rejects.toMatchObject({ code: 'FS_ABORTED' })
  })
})

/** Runs a process that creates a writer's temp file under its own pid, then dies of SIGKILL mid-write. */
function tempOfKilledWriter(dir: string, name: string): string {
  const script = `require('fs').writeFileSync(require('path').join(${JSON.stringify(dir)}, '.${name}.dsh-' + process.pid + '-0123456789ab.tmp'), 'half'); process.kill(process.pid, 'SIGKILL')`
  try {
    execFileSync(process.execPath, ['-e', script])
  } catch {
    // The child ends by SIGKILL, which execFileSync reports as a failure; that is the point.
  }
  const left = readdirSync(dir).find((entry) => entry.startsWith(`.${name}.dsh-`))
  if (left === undefined) throw new Error('the killed writer left no temp file')
  return left
}

describe('temp files of writers that died', () => {
  it('are removed on the next write to their directory; temp files of live processes and other names stay', async () => {
    const dir = tree.path('ws')
    const dead = tempOfKilledWriter(dir, 'keep.txt')
    const writer = spawn('sleep', ['30'])
    try {
      const live = `.other.txt.dsh-${writer.pid}-abcdefabcdef.tmp`
      const own = `.mine.txt.dsh-${process.pid}-abcdefabcdef.tmp`
      await tree.write({ [`ws/${live}`]: 'mid-write', [`ws/${own}`]: 'mid-write', 'ws/.notes.tmp': 'unrelated' })
      await fs().writeText(tree.path('ws/keep.txt'), 'new')
      expect(readdirSync(dir).toSorted()).toEqual(['.notes.tmp', own, live, 'keep.txt'].toSorted())
      expect(dead).toMatch(/^\.keep\.txt\.dsh-\d+-0123456789ab\.tmp$/)
    } finally {
      writer.kill('SIGKILL')
    }
  })

  it('in another directory are left for a write there', async () => {
    const dead = tempOfKilledWriter(tree.path('ws-x'), 'a.txt')
    await fs().writeText(tree.path('ws/keep.txt'), 'new')
    expect(readdirSync(tree.path('ws-x'))).toEqual([dead])
  })
})
