// The listing path of glob: records decoded per chunk (names split across pipe chunks, multi-byte
// characters at the split) and the suffix fast path of the glob matcher, against picomatch itself.
import { chmodSync, writeFileSync } from 'node:fs'
import * as fc from 'fast-check'
import picomatch from 'picomatch'
import { tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runRipgrep } from '../src/ripgrep-process.ts'
import { globMatcher } from '../src/search-filter.ts'

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({})
})
afterEach(async () => {
  await tree.dispose()
})

describe('records decoded per chunk', () => {
  it('gives every NUL-separated name whole, also names split between pipe chunks inside a multi-byte character', async () => {
    const names = Array.from({ length: 20_000 }, (_, i) => `dir/é${i}/naïve-${'ü'.repeat(i % 13)}.ts`)
    writeFileSync(tree.path('names'), `${names.join('\0')}\0`)
    const fake = tree.path('fake-rg')
    writeFileSync(fake, `#!/bin/sh\nexec cat '${tree.path('names')}'\n`)
    chmodSync(fake, 0o755)
    const seen: string[] = []
    const exit = await runRipgrep({ binary: fake, args: [], cwd: tree.root, deadline: Date.now() + 60_000, signal: new AbortController().signal, separator: 0, onText: (record) => seen.push(record) > 0 })
    expect(exit).toEqual({ kind: 'exited', code: 0, stderr: '' })
    expect(seen).toEqual(names)
  })

  it('a record without a final separator is delivered at the end', async () => {
    const fake = tree.path('fake-rg')
    writeFileSync(fake, "#!/bin/sh\nprintf 'a\\0b'\n")
    chmodSync(fake, 0o755)
    const seen: string[] = []
    await runRipgrep({ binary: fake, args: [], cwd: tree.root, deadline: Date.now() + 60_000, signal: new AbortController().signal, separator: 0, onText: (record) => seen.push(record) > 0 })
    expect(seen).toEqual(['a', 'b'])
  })
})

const segment = fc.stringMatching(/^[a-z.é_-]{1,6}$/).filter((name) => name !== '.' && name !== '..')

describe('the suffix fast path', () => {
  it('matches exactly what picomatch matches for "*.ext" and "**/*.ext" on listed paths', () => {
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.constantFrom('.ts', '.d.ts', '.md', '.a-b', '.x_y', '.é'), fc.boolean(), fc.constantFrom('', '.ts', 'x.ts', '.d.ts', '.md', 'md', '/a.ts'), (segments, suffix, deep, end) => {
        const path = `${segments.join('/')}${end}`
        const glob = `${deep ? '**/' : ''}*${suffix}`
        const reference = picomatch(glob, { dot: true })
        const expected = deep ? reference(path) : reference(path.slice(path.lastIndexOf('/') + 1))
        expect(globMatcher(glob)(path)).toBe(expected)
      }),
      { numRuns: 2000 },
    )
  })
})
