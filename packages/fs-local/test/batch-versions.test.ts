// `versions` (read from Node's fs binding when it proves itself) against `stat` and `statSync` on
// real temp trees: every kind of node, changes of every field a version is made of, failures,
// and a Node run with --pending-deprecation, which must not warn.
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, statSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs'
import { tempTree, type TempTree } from '@dsh/testkit'
import * as fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createLocalFileSystem } from '../src/index.ts'
import { bindingCheckedFor } from '../src/raw-stat.ts'

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({ 'dir/a.md': 'A', 'dir/sub/': null })
  symlinkSync(tree.path('dir/a.md'), tree.path('link.md'))
  symlinkSync(tree.path('nowhere'), tree.path('dangling'))
})
afterEach(async () => {
  await tree.dispose()
})

const fs = () => createLocalFileSystem({ writableRoots: [tree.root] })
/** The version as documented (`dev:ino:size:mtime:ctime`, number stats), from `statSync` itself. */
const documented = (path: string): string => {
  const s = statSync(path)
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`
}

describe('versions', () => {
  it('equals stat and the documented statSync version for files, directories, links and absences', async () => {
    const port = fs()
    const paths = [tree.path('dir/a.md'), tree.path('dir'), tree.path('dir/sub'), tree.path('link.md'), tree.path('dangling'), tree.path('missing'), tree.path('dir/a.md/below')]
    const viaStat = await Promise.all(paths.map(async (path) => (await port.stat(path))?.version))
    // Twice: the first answer is the one checked against statSync, the second is the binding's alone.
    for (let round = 0; round < 2; round++) expect(await port.versions?.(paths)).toEqual(viaStat)
    expect(viaStat.slice(0, 4)).toEqual([tree.path('dir/a.md'), tree.path('dir'), tree.path('dir/sub'), tree.path('dir/a.md')].map(documented))
    expect(viaStat.slice(4)).toEqual([undefined, undefined, undefined])
  })

  it('follows every change of size, mtime (to the nanosecond tick), ctime and identity', async () => {
    const port = fs()
    const file = tree.path('dir/a.md')
    const seen = new Set<string | undefined>()
    const changes: (() => void)[] = [
      () => writeFileSync(file, 'AB'),
      () => truncateSync(file, 1),
      () => utimesSync(file, 1_700_000_000.123456, 1_700_000_000.123456),
      () => utimesSync(file, 1_700_000_000.123457, 1_700_000_000.123457),
      () => chmodSync(file, 0o600),
      () => {
        writeFileSync(tree.path('dir/a.md.new'), 'A')
        mkdirSync(tree.path('dir/sub/x'))
      },
    ]
    await port.versions?.([file])
    for (const change of changes) {
      change()
      const [version] = (await port.versions?.([file])) ?? []
      expect(version).toBe(documented(file))
      expect(version).toBe((await port.stat(file))?.version)
      seen.add(version)
    }
    // The last change touched other nodes only: five distinct versions for five changes of the file.
    expect(seen.size).toBe(5)
  })

  it('reports the version stat reports for any times a file can be given (property)', async () => {
    const port = fs()
    const file = tree.path('dir/a.md')
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 4_000_000_000 }), fc.integer({ min: 0, max: 999_999 }), fc.string({ maxLength: 40 }), async (seconds, micros, content) => {
        writeFileSync(file, content)
        utimesSync(file, seconds + micros / 1e6, seconds + micros / 1e6)
        const [version] = (await port.versions?.([file, tree.path('dir')])) ?? []
        expect(version).toBe((await port.stat(file))?.version)
        expect(version).toBe(documented(file))
      }),
      { numRuns: 60 },
    )
  })

  it('rejects with FS_IO for a link loop and a relative path, FS_ABORTED for an aborted signal', async () => {
    symlinkSync(tree.path('loop-b'), tree.path('loop-a'))
    symlinkSync(tree.path('loop-a'), tree.path('loop-b'))
    const port = fs()
    await port.versions?.([tree.path('dir')])
    await expect(port.versions?.([tree.path('loop-a')])).rejects.toMatchObject({ code: 'FS_IO', message: expect.stringContaining('loop-a') })
    await expect(port.versions?.(['relative/a.md'])).rejects.toMatchObject({ code: 'FS_IO' })
    await expect(port.versions?.([tree.path('dir')], AbortSignal.abort())).rejects.toMatchObject({ code: 'FS_ABORTED' })
  })

  it('prints no deprecation warning under --pending-deprecation and still answers as stat', () => {
    const script = `
      import { createLocalFileSystem } from ${JSON.stringify(new URL('../src/index.ts', import.meta.url).href)}
      const port = createLocalFileSystem({ writableRoots: [] })
      const path = ${JSON.stringify(tree.path('dir/a.md'))}
      const [a] = await port.versions([path]); const [b] = await port.versions([path])
      process.stdout.write(String(a === (await port.stat(path)).version && a === b))`
    const child = spawnSync(process.execPath, ['--pending-deprecation', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(child.stderr).not.toMatch(/DeprecationWarning/)
    expect(child.stdout).toBe('true')
  })

  it('tries the internal binding only on a Node major it was checked against (a mismatch there would abort, not throw)', () => {
    expect(bindingCheckedFor('20.19.0')).toBe(true)
    expect(bindingCheckedFor('20.20.2')).toBe(true)
    expect(bindingCheckedFor('22.12.0')).toBe(false)
    expect(bindingCheckedFor('24.0.0')).toBe(false)
    expect(bindingCheckedFor('2.0.0')).toBe(false)
  })
})
