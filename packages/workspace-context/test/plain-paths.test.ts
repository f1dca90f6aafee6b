// String operations on plain paths agree with node:path wherever they are used instead of it.
import { dirname, isAbsolute, relative, sep } from 'node:path'
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { absOf, chainDirs, descendantDirs, relKey } from '../src/directories.ts'
import { isPlainPath, plainInside, plainParent, plainRelKey } from '../src/plain-paths.ts'
import { isInsideRoot } from '../src/trusted-roots.ts'

const part = fc.constantFrom('a', 'b', 'repo', 'repo-x', '.agents', '..foo', '.', '..', '', 'src')
const path = fc.array(part, { maxLength: 5 }).map((parts) => `/${parts.join('/')}`)

/** node:path's containment, the oracle. */
const inside = (root: string, target: string): boolean => {
  const rel = relative(root, target)
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`))
}

// The general forms, on node:path alone (what the directory helpers computed before the plain-path shortcuts).
const generalKey = (root: string, abs: string): string => relative(root, abs).split(sep).join('/') || '.'
const generalInside = (root: string, target: string): boolean => inside(root, target)
const generalChain = (root: string, cwd: string) => {
  if (!generalInside(root, cwd)) return [{ abs: cwd, rel: '.' }]
  const dirs = []
  for (let dir = cwd; ; dir = dirname(dir)) {
    dirs.unshift({ abs: dir, rel: generalKey(root, dir) })
    if (dir === root || dirname(dir) === dir) break
  }
  return dirs
}
const generalDescendants = (root: string, cwd: string, file: string) => {
  const parent = dirname(file)
  if (parent === cwd || !generalInside(cwd, parent) || !generalInside(root, parent)) return []
  const dirs = []
  for (let dir = parent; dir !== cwd && dirname(dir) !== dir; dir = dirname(dir)) dirs.unshift({ abs: dir, rel: generalKey(root, dir) })
  return dirs
}

describe('plain paths', () => {
  it('agree with node:path on containment, parents and root-relative keys', () => {
    fc.assert(
      fc.property(path, path, (root, target) => {
        if (!isPlainPath(root) || !isPlainPath(target)) return
        expect(plainInside(root, target)).toBe(inside(root, target))
        expect(plainParent(target)).toBe(dirname(target))
        if (inside(root, target)) expect(plainRelKey(root, target)).toBe(relative(root, target).split(sep).join('/') || '.')
      }),
    )
  })

  it('call paths with dot parts, repeated or trailing separators not plain', () => {
    for (const odd of ['/a/./b', '/a/../b', '/a//b', '/a/', '/a/.', '/a/..', 'a/b', '']) expect(isPlainPath(odd)).toBe(false)
    for (const plain of ['/', '/a', '/a/.agents/..foo', '/repo/src']) expect(isPlainPath(plain)).toBe(true)
  })

  it('give the directory helpers the results of the general path code for any input', () => {
    fc.assert(
      fc.property(path, path, path, (root, cwd, file) => {
        expect(isInsideRoot(root, cwd)).toBe(generalInside(root, cwd))
        expect(chainDirs(root, cwd)).toEqual(generalChain(root, cwd))
        expect(descendantDirs(root, cwd, file)).toEqual(generalDescendants(root, cwd, file))
        if (generalInside(root, cwd)) expect(relKey(root, cwd)).toBe(generalKey(root, cwd))
      }),
    )
  })

  it('turn a scope key back into the directory it names', () => {
    fc.assert(
      fc.property(path, fc.array(fc.constantFrom('a', '.agents', '..foo', 'src'), { minLength: 1, maxLength: 4 }), (root, parts) => {
        if (!isPlainPath(root)) return
        const rel = parts.join('/')
        expect(absOf(root, rel)).toBe(root === '/' ? `/${rel}` : `${root}/${rel}`)
        expect(relKey(root, absOf(root, rel))).toBe(rel)
      }),
    )
  })
})
