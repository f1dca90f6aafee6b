// editText: exact-match rules, literal replacement, BOM kept, conflicts, confinement.
import { appendFileSync, readdirSync, readFileSync } from 'node:fs'
import { tempTree, type TempTree } from '@dsh/testkit'
import * as fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { applyEdit } from '../src/edit-match.ts'
import { createLocalFileSystem } from '../src/index.ts'
import { abortWhenTempExists, rejection } from './helpers.ts'

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({ 'ws/code.ts': 'let a = 1\nlet b = 1\nlet a2 = 3\n', 'outside/x.ts': 'let a = 1\n' })
})
afterEach(async () => {
  await tree.dispose()
})

const fs = () => createLocalFileSystem({ writableRoots: [tree.path('ws')] })
const file = () => tree.path('ws/code.ts')
const read = () => readFileSync(file(), 'utf8')

describe('match rules', () => {
  it('replaces a unique match and reports one replacement', async () => {
    const result = await fs().editText(file(), { oldString: 'let b = 1', newString: 'let b = 2' })
    expect(result).toMatchObject({ replacements: 1, created: false, bytes: 31 })
    expect(read()).toBe('let a = 1\nlet b = 2\nlet a2 = 3\n')
  })

  it('rejects zero matches and an empty old string', async () => {
    await expect(fs().editText(file(), { oldString: 'nope', newString: 'x' })).rejects.toMatchObject({
      code: 'FS_NO_MATCH',
    })
    await expect(fs().editText(file(), { oldString: '', newString: 'x' })).rejects.toMatchObject({
      code: 'FS_NO_MATCH',
    })
  })

  it('rejects an ambiguous match and says how many, unless replaceAll', async () => {
    const error = await rejection(fs().editText(file(), { oldString: ' = 1', newString: ' = 9' }))
    expect(error).toMatchObject({ code: 'FS_AMBIGUOUS_MATCH' })
    expect(error.message).toContain('2 times')
    const all = await fs().editText(file(), { oldString: ' = 1', newString: ' = 9', replaceAll: true })
    expect(all.replacements).toBe(2)
    expect(read()).toBe('let a = 9\nlet b = 9\nlet a2 = 3\n')
  })

  it('inserts the replacement literally ($& and $1 are not patterns)', async () => {
    await fs().editText(file(), { oldString: 'let b = 1', newString: "let b = '$&$1'" })
    expect(read()).toContain("let b = '$&$1'")
  })

  it('keeps a UTF-8 BOM and the file mode', async () => {
    await tree.write({ 'ws/bom.md': new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('title\n')]) })
    await fs().editText(tree.path('ws/bom.md'), { oldString: 'title', newString: 'Title' })
    expect([...readFileSync(tree.path('ws/bom.md'))].slice(0, 3)).toEqual([0xef, 0xbb, 0xbf])
    expect(readFileSync(tree.path('ws/bom.md'), 'utf8')).toBe('\uFEFFTitle\n')
  })

  it('agrees with a replaceAll oracle and flags ambiguity exactly when there are several matches', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'ab', '\n') })
    const needle = fc.string({ unit: fc.constantFrom('a', 'b'), minLength: 1, maxLength: 3 })
    fc.assert(
      fc.property(text, needle, fc.string({ maxLength: 3 }), (source, oldString, newString) => {
        const count = source.split(oldString).length - 1
        if (count === 0) {
          expect(() => applyEdit(source, { oldString, newString }, 'p')).toThrow(/not found/)
          return
        }
        const all = applyEdit(source, { oldString, newString, replaceAll: true }, 'p')
        expect(all).toEqual({ text: source.replaceAll(oldString, () => newString), replacements: count })
        if (count > 1) expect(() => applyEdit(source, { oldString, newString }, 'p')).toThrow(/occurs/)
        else expect(applyEdit(source, { oldString, newString }, 'p')).toEqual(all)
      }),
    )
  })
})

describe('failures keep the file', () => {
  it('rejects missing, outside-root and non-UTF-8 files', async () => {
    await tree.write({ 'ws/utf16.txt': new Uint8Array([0xff, 0xfe, 0x61, 0x00]) })
    const port = fs()
    await expect(port.editText(tree.path('ws/none.ts'), { oldString: 'a', newString: 'b' })).rejects.toMatchObject({
      code: 'FS_NOT_FOUND',
    })
    await expect(port.editText(tree.path('outside/x.ts'), { oldString: 'a', newString: 'b' })).rejects.toMatchObject({
      code: 'FS_OUTSIDE_ROOTS',
    })
    await expect(port.editText(tree.path('ws/utf16.txt'), { oldString: 'a', newString: 'b' })).rejects.toMatchObject({
      code: 'FS_NOT_UTF8',
    })
    expect(readFileSync(tree.path('outside/x.ts'), 'utf8')).toBe('let a = 1\n')
  })

  it('reports a conflict when the file changes between read and rename', async () => {
    const signal = abortWhenTempExists(tree.path('ws'), () => appendFileSync(file(), '// concurrent\n'))
    const edit = fs().editText(file(), { oldString: 'let b = 1', newString: 'let b = 2' }, { signal })
    await expect(edit).rejects.toMatchObject({ code: 'FS_CONFLICT' })
    expect(read()).toBe('let a = 1\nlet b = 1\nlet a2 = 3\n// concurrent\n')
    expect(readdirSync(tree.path('ws'))).toEqual(['code.ts'])
  })
})
