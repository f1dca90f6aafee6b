// write and edit tools: golden result texts, touched paths and error results with hints.
import { readFileSync, symlinkSync } from 'node:fs'
import { createLocalFileSystem } from '@dsh/fs-local'
import { tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { editTool, writeTool } from '../src/index.ts'
import { call, runContext, seen } from './helpers.ts'

let tree: TempTree
beforeEach(async () => {
  tree = await tempTree({ 'ws/a.ts': 'let x = 1\nlet y = 1\n', 'outside/o.txt': 'o' })
  symlinkSync(tree.path('outside'), tree.path('ws/link'))
})
afterEach(async () => {
  await tree.dispose()
})

const run = () => runContext({ cwd: tree.path('ws') })
const file = (relative: string) => readFileSync(tree.path(relative), 'utf8')

describe('write', () => {
  it('creates, then overwrites, with byte counts and the canonical touched path', async () => {
    const created = await call(writeTool, { file_path: 'new/dir/b.md', content: 'héllo\n' }, run())
    expect(seen(created)).toEqual({ isError: false, content: 'Created new/dir/b.md (7 bytes).' })
    expect(created.isError !== true && created.touched).toEqual([{ path: tree.path('ws/new/dir/b.md'), kind: 'write' }])
    const again = await call(writeTool, { file_path: tree.path('ws/new/dir/b.md'), content: '' }, run())
    expect(seen(again)).toEqual({ isError: false, content: `Overwrote ${tree.path('ws/new/dir/b.md')} (0 bytes).` })
    expect(file('ws/new/dir/b.md')).toBe('')
  })

  it('refuses paths outside the writable roots, also through a linked directory', async () => {
    const expected = {
      isError: true,
      content: `Cannot write link/o.txt: it is outside the writable roots (${tree.path('ws')}). Choose a path inside one of them.`,
    }
    expect(seen(await call(writeTool, { file_path: 'link/o.txt', content: 'x' }, run()))).toEqual(expected)
    expect(file('outside/o.txt')).toBe('o')
  })

  it('rejects unknown arguments through the strict schema', () => {
    expect(() => writeTool.parameters.parse({ file_path: 'a', content: 'b', mode: 1 })).toThrow()
  })
})

describe('edit', () => {
  it('replaces a unique match', async () => {
    const output = await call(editTool, { file_path: 'a.ts', old_string: 'let y = 1', new_string: 'let y = 2' }, run())
    expect(seen(output)).toEqual({ isError: false, content: 'Edited a.ts: replaced 1 occurrence.' })
    expect(output.isError !== true && output.touched).toEqual([{ path: tree.path('ws/a.ts'), kind: 'edit' }])
    expect(file('ws/a.ts')).toBe('let x = 1\nlet y = 2\n')
  })

  it('replaces all occurrences when asked', async () => {
    const args = { file_path: 'a.ts', old_string: ' = 1', new_string: ' = 3', replace_all: true }
    expect(seen(await call(editTool, args, run()))).toEqual({ isError: false, content: 'Edited a.ts: replaced 2 occurrences.' })
    expect(file('ws/a.ts')).toBe('let x = 3\nlet y = 3\n')
  })

  it('explains no match, an ambiguous match and identical strings', async () => {
    expect(seen(await call(editTool, { file_path: 'a.ts', old_string: 'let z', new_string: 'q' }, run()))).toEqual({
      isError: true,
      content:
        'old_string was not found in a.ts. It must match exactly, including whitespace, indentation and line endings; read the file again and copy the text from it.',
    })
    expect(seen(await call(editTool, { file_path: 'a.ts', old_string: ' = 1', new_string: ' = 2' }, run()))).toEqual({
      isError: true,
      content:
        'old_string matches 2 places in a.ts. Include more surrounding lines so it matches exactly one place, or set replace_all to true to replace every occurrence.',
    })
    expect(seen(await call(editTool, { file_path: 'a.ts', old_string: 'x', new_string: 'x' }, run()))).toEqual({
      isError: true,
      content: 'old_string and new_string are identical, so there is nothing to change.',
    })
    expect(file('ws/a.ts')).toBe('let x = 1\nlet y = 1\n')
  })

  it('explains a missing file and an outside path', async () => {
    expect(seen(await call(editTool, { file_path: 'none.ts', old_string: 'a', new_string: 'b' }, run()))).toEqual({
      isError: true,
      content: 'File not found: none.ts. edit only changes existing files; use write to create it.',
    })
    expect(seen(await call(editTool, { file_path: 'link/o.txt', old_string: 'o', new_string: 'p' }, run()))).toEqual({
      isError: true,
      content: `Cannot edit link/o.txt: it is outside the writable roots (${tree.path('ws')}). Choose a path inside one of them.`,
    })
  })

  it('F20: a file too large to edit is changed with bash (edit rewrites the whole file)', async () => {
    const small = createLocalFileSystem({ writableRoots: [tree.path('ws')], defaultMaxBytes: 8 })
    expect(seen(await call(editTool, { file_path: 'a.ts', old_string: 'x', new_string: 'z' }, runContext({ cwd: tree.path('ws'), fs: small })))).toEqual({
      isError: true,
      content: 'a.ts is too large to edit: edit reads and rewrites the whole file, up to a size limit. Change it with bash (sed -i, or a short script); grep finds the lines first.',
    })
  })

  it('rejects an empty old_string at validation', () => {
    expect(() => editTool.parameters.parse({ file_path: 'a.ts', old_string: '', new_string: 'x' })).toThrow()
  })
})
