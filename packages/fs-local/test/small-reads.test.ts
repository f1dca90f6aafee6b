// Cost structure of reads and stats: a small file is read without the thread pool (it never waits
// behind busy workers), a large one still in full through it; number stats keep exact identities.
import { pbkdf2 } from 'node:crypto'
import { statSync } from 'node:fs'
import { tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createLocalFileSystem } from '../src/index.ts'
import { hasExactIdentity, nodeIdOf, versionOf } from '../src/node-info.ts'

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({ 'AGENTS.md': '# Rules\n\nUse tabs.\n', 'big.txt': `${'x'.repeat(99)}\n`.repeat(2000) })
})
afterEach(async () => {
  await tree.dispose()
})

const fs = () => createLocalFileSystem({ writableRoots: [tree.root] })

/** Occupies every libuv worker (4 by default) with a key derivation of a few hundred milliseconds. */
function busyThreadPool(): Promise<string>[] {
  const workers = Number(process.env['UV_THREADPOOL_SIZE'] ?? 4)
  return Array.from({ length: workers }, () => new Promise<string>((resolve) => pbkdf2('p', 's', 400_000, 64, 'sha512', () => resolve('pool'))))
}

describe('small reads', () => {
  it('a small file is read while every thread-pool worker is busy', async () => {
    const pool = busyThreadPool()
    const read = fs()
      .readText(tree.path('AGENTS.md'))
      .then(({ text }) => text)
    expect(await Promise.race([read, ...pool])).toBe('# Rules\n\nUse tabs.\n')
    await Promise.all(pool)
  })

  it('streams a file larger than one chunk in full', async () => {
    const chunks: string[] = []
    for await (const chunk of fs().streamText(tree.path('big.txt'))) chunks.push(chunk)
    expect(chunks.length).toBeGreaterThan(1)
    expect(chunks.join('')).toBe(`${'x'.repeat(99)}\n`.repeat(2000))
  })
})

/** The version of a node with inode `ino` and fixed other fields, from bigint stats. */
const at = (ino: bigint) => versionOf({ dev: 2049n, ino, size: 20n, mtimeNs: 1_764_000_000_123_456_789n, ctimeNs: 1_764_000_000_123_456_789n })

describe('number stats', () => {
  it('identify nodes exactly below 2^53, and ask for bigints above', () => {
    const { dev, ino } = statSync(tree.path('AGENTS.md'))
    expect(hasExactIdentity({ dev, ino })).toBe(true)
    expect(hasExactIdentity({ dev, ino: 2 ** 53 + 2 })).toBe(false)
  })

  it('bigint stats of a node above 2^53 keep its inode exact', () => {
    expect(nodeIdOf(at(2n ** 60n + 1n))).toBe(`2049:${2n ** 60n + 1n}`)
    expect(nodeIdOf(at(2n ** 60n + 2n))).not.toBe(nodeIdOf(at(2n ** 60n + 1n)))
    expect(versionOf({ dev: 2049, ino: 7, size: 20, mtimeMs: 1_764_000_000_123.4568, ctimeMs: 1_764_000_000_123.4568 })).toBe('2049:7:20:1764000000123.4568:1764000000123.4568')
  })
})
