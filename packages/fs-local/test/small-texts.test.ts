// readSmallTexts on real temp trees: texts in order, what is never opened (links, directories,
// FIFOs), known versions, limits and encodings, a swap between the look and the open (injected
// through the `known` lookup, which runs between the two), and the thread-pool path of a file
// above the synchronous limit. Also listDir past its synchronous part and with a busy thread pool.
import { pbkdf2 } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import type { FsSmallText, FsVersion } from '@dsh/contracts'
import { tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createLocalFileSystem } from '../src/index.ts'
import { SMALL_DIR_BYTES, SYNC_ENTRIES } from '../src/list-dir.ts'
import { SYNC_BYTES } from '../src/small-texts.ts'
import { rejection } from './helpers.ts'

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({ 'a.md': 'alpha\n', 'bom.md': '\uFEFFbom\n', 'dir/': null, 'file': 'x', 'other.md': 'other\n' })
})
afterEach(async () => {
  await tree.dispose()
})

const fs = () => createLocalFileSystem({ writableRoots: [tree.root] })
const read = (paths: readonly string[], options: { maxBytes?: number; known?: ReadonlyMap<string, FsVersion>; signal?: AbortSignal } = {}) => {
  const port = fs()
  if (port.readSmallTexts === undefined) throw new Error('the local port reads small texts in a batch')
  return port.readSmallTexts(paths, { maxBytes: options.maxBytes ?? 1024, ...options })
}
const kinds = (outcomes: readonly FsSmallText[]) => outcomes.map((outcome) => (outcome.kind === 'text' ? `text ${outcome.text}` : outcome.kind === 'failed' ? `failed ${outcome.error.code}` : outcome.kind === 'not-file' ? `not-file ${outcome.info.type}` : outcome.kind))

/** A `known` map whose lookup (between the look and the open) runs `swap` once. */
function swapping(swap: () => void): ReadonlyMap<string, FsVersion> {
  let done = false
  return new (class extends Map<string, FsVersion> {
    override get(key: string): FsVersion | undefined {
      if (!done) swap()
      done = true
      return super.get(key)
    }
  })()
}

describe('readSmallTexts', () => {
  it('reads regular files in order, strips a BOM, and reports missing paths as absent', async () => {
    const outcomes = await read([tree.path('a.md'), tree.path('missing.md'), tree.path('bom.md'), tree.path('file/below')])
    expect(kinds(outcomes)).toEqual(['text alpha\n', 'absent', 'text bom\n', 'absent'])
    const first = outcomes[0]
    expect(first?.kind === 'text' ? first.info : undefined).toMatchObject({ type: 'file', size: 6 })
  })

  it('never opens a link, a directory or a FIFO (a FIFO without a writer does not block)', async () => {
    symlinkSync(tree.path('a.md'), tree.path('link.md'))
    execFileSync('mkfifo', [tree.path('pipe.md')])
    expect(kinds(await read([tree.path('link.md'), tree.path('dir'), tree.path('pipe.md')]))).toEqual(['not-file symlink', 'not-file directory', 'not-file other'])
  })

  it('a path still at a known version is unchanged and not read; a changed one is read', async () => {
    const info = await fs().lstat(tree.path('a.md'))
    if (info === undefined) throw new Error('a.md exists')
    const known = new Map([[tree.path('a.md'), info.version]])
    expect(kinds(await read([tree.path('a.md')], { known }))).toEqual(['unchanged'])
    writeFileSync(tree.path('a.md'), 'changed\n')
    expect(kinds(await read([tree.path('a.md')], { known }))).toEqual(['text changed\n'])
  })

  it('refuses a file over the cap (with its size), invalid UTF-8 and a relative path, each on its own', async () => {
    writeFileSync(tree.path('latin1.md'), Buffer.from('caf\xe9\n', 'latin1'))
    const outcomes = await read([tree.path('a.md'), tree.path('latin1.md'), 'a.md', tree.path('other.md')], { maxBytes: 5 })
    expect(kinds(outcomes)).toEqual(['failed FS_TOO_LARGE', 'failed FS_NOT_UTF8', 'failed FS_IO', 'failed FS_TOO_LARGE'])
    const first = outcomes[0]
    expect(first?.kind === 'failed' ? first.info?.size : undefined).toBe(6)
  })

  it('reports another node swapped in between the look and the open, and never reads through it', async () => {
    const cases: [string, (target: string) => void][] = [
      ['a link', (target) => (renameSync(target, tree.path('moved.md')), symlinkSync(tree.path('other.md'), target))],
      ['another file', (target) => renameSync(tree.path('other.md'), target)],
      ['a FIFO', (target) => (renameSync(target, tree.path('moved.md')), execFileSync('mkfifo', [target]))],
    ]
    for (const [what, swap] of cases) {
      await tree.dispose()
      tree = await tempTree({ 'a.md': 'alpha\n', 'other.md': 'other\n' })
      const target = tree.path('a.md')
      expect({ what, kinds: kinds(await read([target], { known: swapping(() => swap(target)) })) }).toEqual({ what, kinds: ['failed FS_CONFLICT'] })
    }
  })

  it('reads a file above the synchronous limit in full on the thread pool', async () => {
    const line = `${'y'.repeat(1023)}\n`
    writeFileSync(tree.path('big.md'), line.repeat(SYNC_BYTES / 1024 + 40))
    const [outcome] = await read([tree.path('big.md')], { maxBytes: 4 * SYNC_BYTES })
    expect(outcome?.kind === 'text' ? outcome.text.length : outcome?.kind).toBe(SYNC_BYTES + 40 * 1024)
  })

  it('rejects when cancelled', async () => {
    const controller = new AbortController()
    controller.abort()
    expect(await rejection(read([tree.path('a.md')], { signal: controller.signal }))).toMatchObject({ code: 'FS_ABORTED' })
  })
})

describe('listDir', () => {
  it('lists a directory larger than its synchronous part completely, sorted, with types', async () => {
    // Past both shortcuts whatever the filesystem: more than SYNC_ENTRIES entries and a directory size above SMALL_DIR_BYTES.
    const names: string[] = []
    while (names.length < SYNC_ENTRIES + 44 || statSync(tree.path('dir')).size <= SMALL_DIR_BYTES) {
      const name = `f${String(names.length).padStart(4, '0')}`
      writeFileSync(tree.path(`dir/${name}`), '')
      names.push(name)
      if (names.length > 20_000) throw new Error('the directory size never grew past SMALL_DIR_BYTES')
    }
    symlinkSync(tree.path('a.md'), tree.path('dir/zz-link'))
    const entries = await fs().listDir(tree.path('dir'))
    expect(entries.map((entry) => entry.name)).toEqual([...names, 'zz-link'])
    expect(new Set(entries.map((entry) => entry.type))).toEqual(new Set(['file', 'symlink']))
  })

  it('lists a small directory while every thread-pool worker is busy', async () => {
    const workers = Number(process.env['UV_THREADPOOL_SIZE'] ?? 4)
    const pool = Array.from({ length: workers }, () => new Promise<string>((resolve) => pbkdf2('p', 's', 400_000, 64, 'sha512', () => resolve('pool'))))
    const listed = fs()
      .listDir(tree.root)
      .then((entries) => entries.map((entry) => entry.name).join(' '))
    expect(await Promise.race([listed, ...pool])).toBe('a.md bom.md dir file other.md')
    await Promise.all(pool)
  })
})
