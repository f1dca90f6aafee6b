// When a cached version may be trusted (racy timestamps): by the provider's `changedAtMs` when it
// reports one (old → at once, fresh → only once an observation starts a settle window after it,
// ahead of the clock → not until the clock passes it), otherwise by re-confirmation after the
// settle window; and that fs-local's timestamps and the wall clock agree on a real disk.
import type { FsVersion } from '@dsh/contracts'
import { createLocalFileSystem } from '@dsh/fs-local'
import { tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, describe, expect, it } from 'vitest'
import { contentDigest } from '../src/digest.ts'
import { examineDirectory, type ExamineOptions } from '../src/directory-examiner.ts'
import { projectScope } from '../src/scope-key.ts'
import { VersionMemo } from '../src/version-memo.ts'

const isVersion = (_value: string): _value is FsVersion => true
const version = (value: string): FsVersion => {
  if (!isVersion(value)) throw new Error('unreachable')
  return value
}
const V1 = version('v1')
const V2 = version('v2')
const digests = { digest: 'd', trimmedDigest: 't', bytes: 1 }
const at = (startedAt: number, changedAtMs?: number) => ({ startedAt, finishedAt: startedAt + 1, ...(changedAtMs === undefined ? {} : { changedAtMs }) })

describe('VersionMemo trust', () => {
  it('trusts a version whose timestamp is older than the settle window at first sight', () => {
    const memo = new VersionMemo(20)
    memo.recordFile('/f', V1, digests, at(1000, 980))
    memo.recordDirectory('/d', V1, [], at(1000, 500))
    expect(memo.file('/f', V1)?.digest).toBe('d')
    expect(memo.directory('/d', V1)).toBeDefined()
    expect(memo.file('/f', V2)).toBeUndefined()
  })

  it('does not trust a fresh timestamp until an observation starts a settle window after it', () => {
    const memo = new VersionMemo(20)
    memo.recordFile('/f', V1, digests, at(1000, 995))
    expect(memo.file('/f', V1)).toBeUndefined()
    memo.recordFile('/f', V1, digests, at(1010, 995))
    expect(memo.file('/f', V1)).toBeUndefined()
    memo.recordFile('/f', V1, digests, at(1015, 995))
    expect(memo.file('/f', V1)).toBeDefined()
  })

  it('never trusts a timestamp ahead of the clock, not even with a zero settle window', () => {
    for (const settle of [20, 0]) {
      const memo = new VersionMemo(settle)
      memo.recordDirectory('/d', V1, [], at(1000, 5000))
      memo.recordDirectory('/d', V1, [], at(4000, 5000))
      expect(memo.directory('/d', V1)).toBeUndefined()
      memo.recordDirectory('/d', V1, [], at(5000 + settle, 5000))
      expect(memo.directory('/d', V1)).toBeDefined()
    }
  })

  it('falls back to re-confirmation after the settle window without timestamps', () => {
    const memo = new VersionMemo(20)
    memo.recordFile('/f', V1, digests, at(1000))
    expect(memo.file('/f', V1)).toBeUndefined()
    memo.recordFile('/f', V1, digests, at(1015))
    expect(memo.file('/f', V1)).toBeUndefined()
    memo.recordFile('/f', V1, digests, at(1021))
    expect(memo.file('/f', V1)).toBeDefined()
    // A new version starts over.
    memo.recordFile('/f', V2, digests, at(2000))
    expect(memo.file('/f', V2)).toBeUndefined()
    expect(new VersionMemo(0).file('/f', V1)).toBeUndefined()
    const zero = new VersionMemo(0)
    zero.recordFile('/f', V1, digests, at(1000))
    expect(zero.file('/f', V1)).toBeDefined()
  })
})

describe('fs-local timestamps against the wall clock', () => {
  let tree: TempTree | undefined
  afterEach(async () => {
    await tree?.dispose()
    tree = undefined
  })

  async function examineTwice(settleMs: number, waitMs: number) {
    tree = await tempTree({ 'AGENTS.md': 'Rules.\n', 'sub/': null })
    await new Promise((resolve) => setTimeout(resolve, waitMs))
    const real = createLocalFileSystem({ writableRoots: [tree.root] })
    const calls: string[] = []
    const fs = { ...real, stat: (p: string, s?: AbortSignal) => (calls.push('stat'), real.stat(p, s)), lstat: (p: string, s?: AbortSignal) => (calls.push('lstat'), real.lstat(p, s)), streamText: (p: string, o?: object) => (calls.push('read'), real.streamText(p, o)) }
    const root = tree.root
    const options: ExamineOptions = { fs, maxSourceBytes: 1 << 20, policy: 'first', link: { followSymlinks: true, trustedRoots: undefined }, memo: new VersionMemo(settleMs), directoryVersions: true, now: Date.now, knownDigest: () => undefined, claimed: new Map() }
    const spec = { abs: root, base: ['AGENTS.md', 'CLAUDE.md'], local: ['AGENTS.local.md'], scopeOf: (slot: string) => projectScope('.', slot), displayOf: (name: string) => name }
    await examineDirectory({ ...options, claimed: new Map() }, spec)
    const first = calls.splice(0)
    // The model has the file now: a trusted fact lets the second examination skip its read.
    const known = await examineDirectory({ ...options, claimed: new Map(), knownDigest: () => contentDigest('Rules.\n') }, spec)
    expect(known.observations).toMatchObject([{ state: 'present', path: 'AGENTS.md' }, { state: 'absent' }])
    return { first, second: calls.splice(0) }
  }

  it('trusts a tree older than the settle window at first sight: the next examination only stats', async () => {
    const { first, second } = await examineTwice(20, 40)
    expect(first).toEqual(['stat', 'lstat', 'lstat', 'read'])
    expect(second).toEqual(['stat', 'stat'])
  })

  it('probes and reads a tree changed within the settle window again', async () => {
    const { second } = await examineTwice(60_000, 0)
    expect(second).toEqual(['stat', 'lstat', 'lstat', 'read'])
  })
})
