// read tool: numbered output, paging, cut lines, budgets and error results (golden texts).
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { tempTree, type TempTree } from '@dsh/testkit'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createReadTool, LineIndexCache, readTool } from '../src/index.ts'
import { call, runContext, seen } from './helpers.ts'

let tree: TempTree
/** The tool as coreTools() builds it: with a line index (read-index.test.ts compares it with the plain one). */
let indexedRead = createReadTool({ lineIndex: new LineIndexCache() })
beforeEach(async () => {
  indexedRead = createReadTool({ lineIndex: new LineIndexCache() })
  tree = await tempTree({ 'src/a.ts': 'const a = 1\n\tindented\nlast', 'empty.txt': '', 'dir/': null })
})
afterEach(async () => {
  await tree.dispose()
})

const read = (args: unknown) => call(indexedRead, args, runContext({ cwd: tree.root }))
const sha = (value: string) => createHash('sha256').update(value).digest('hex')
/** `meta.sha256` of a read of src/a.ts with `args`. */
async function meta(args: Record<string, unknown>): Promise<unknown> {
  const output = await read({ file_path: 'src/a.ts', ...args })
  return output.isError === true ? undefined : output.meta?.['sha256']
}
const numbered = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `${String(from + i).padStart(6)}\tline ${from + i}`).join('\n')

describe('success', () => {
  it('numbers lines and reports the canonical path as touched', async () => {
    const output = await read({ file_path: 'src/a.ts' })
    expect(seen(output)).toEqual({
      isError: false,
      content: '     1\tconst a = 1\n     2\t\tindented\n     3\tlast',
    })
    expect(output.isError !== true && output.touched).toEqual([{ path: tree.path('src/a.ts'), kind: 'read' }])
  })

  it('pages with offset and limit and says how to continue', async () => {
    await tree.write({ 'many.txt': Array.from({ length: 30 }, (_, i) => `line ${i + 1}\n`).join('') })
    expect(seen(await read({ file_path: 'many.txt', offset: 11, limit: 5 })).content).toBe(
      `${numbered(11, 15)}\n[Showing lines 11-15; the file continues. Call read with offset=16 to read more.]`,
    )
    expect(seen(await read({ file_path: 'many.txt', offset: 26 })).content).toBe(numbered(26, 30))
  })

  it('reports the SHA-256 of the exact text in meta only when the output shows the whole file', async () => {
    const text = 'const a = 1\n\tindented\nlast'
    expect(await meta({})).toBe(sha(text))
    expect(await meta({ offset: 1, limit: 3 })).toBe(sha(text))
    expect(await meta({ offset: 2 })).toBeUndefined()
    expect(await meta({ limit: 2 })).toBeUndefined()
    await tree.write({ 'src/a.ts': `${text}\n${'x'.repeat(2500)}\n` })
    expect(await meta({})).toBeUndefined()
    await tree.write({ 'src/a.ts': `${text}\n` })
    expect(await meta({})).toBe(sha(`${text}\n`))
  })

  it('returns 2000 lines by default', async () => {
    await tree.write({ 'long.txt': Array.from({ length: 2500 }, (_, i) => `line ${i + 1}\n`).join('') })
    const content = seen(await read({ file_path: 'long.txt' })).content
    expect(content.split('\n')).toHaveLength(2001)
    expect(content.endsWith('[Showing lines 1-2000; the file continues. Call read with offset=2001 to read more.]')).toBe(true)
  })

  it('cuts long lines with a marker', async () => {
    await tree.write({ 'wide.txt': `${'x'.repeat(2005)}\nshort\n` })
    expect(seen(await read({ file_path: 'wide.txt' })).content).toBe(
      `     1\t${'x'.repeat(2000)}… [line cut: 5 more characters]\n     2\tshort\n` +
        '[1 line(s) longer than 2000 characters were cut. Line 1 shows characters 1-2000 of 2005: call read with offset=1, char_offset=2001 to page through it.]',
    )
  })

  it('stops at the 256 KiB output budget and says where to continue', async () => {
    await tree.write({ 'wide.txt': `${'y'.repeat(1900)}\n`.repeat(200) })
    const content = seen(await read({ file_path: 'wide.txt' })).content
    expect(content.length).toBeLessThan(270 * 1024)
    expect(content).toMatch(/\n\[Output stopped at 256 KiB after line 137\. Call read with offset=138 to read more\.\]$/)
  })

  it('reads the start of a file larger than the scan limit', async () => {
    writeFileSync(tree.path('huge.log'), `line 1\n${'line\n'.repeat(3 * 1024 * 1024)}`)
    const content = seen(await read({ file_path: 'huge.log', limit: 1 })).content
    expect(content).toBe('     1\tline 1\n[Showing lines 1-1; the file continues. Call read with offset=2 to read more.]')
  })

  it('says when a file is empty', async () => {
    expect(seen(await read({ file_path: 'empty.txt' }))).toEqual({ isError: false, content: '[The file is empty.]' })
  })
})

describe('error results', () => {
  it('missing file', async () => {
    expect(seen(await read({ file_path: 'src/nope.ts' }))).toEqual({
      isError: true,
      content: `Not found: src/nope.ts. Relative paths resolve against ${tree.root}; use glob to find the right path.`,
    })
  })

  it('directory, FIFO and offset past the end', async () => {
    execFileSync('mkfifo', [tree.path('pipe')])
    expect(seen(await read({ file_path: 'dir' }))).toEqual({
      isError: true,
      content: 'dir is not a regular file (it is a directory or a dangling link). Use glob to list files in a directory.',
    })
    expect(seen(await read({ file_path: 'pipe' }))).toEqual({
      isError: true,
      content: 'pipe is a FIFO, socket or device, not a regular file; it was not opened.',
    })
    expect(seen(await read({ file_path: 'src/a.ts', offset: 9 }))).toEqual({
      isError: true,
      content: 'Line 9 is past the end of src/a.ts, which has 3 line(s). Use an offset from 1 to 3.',
    })
  })

  it('UTF-16 and binary files', async () => {
    await tree.write({
      'utf16.txt': new Uint8Array([0xff, 0xfe, ...Buffer.from('hi', 'utf16le')]),
      'nul.bin': new Uint8Array([0x61, 0x00, 0x62]),
    })
    expect(seen(await read({ file_path: 'utf16.txt' }))).toEqual({
      isError: true,
      content:
        'utf16.txt is not UTF-8 text (binary, or another encoding such as UTF-16). Inspect it with bash (file, xxd | head, iconv).',
    })
    expect(seen(await read({ file_path: 'nul.bin' }))).toEqual({
      isError: true,
      content: 'nul.bin looks binary (it contains NUL characters). Inspect it with bash (file, xxd | head).',
    })
  })

  it('pages by line number past 10 MiB (a streamed line count, no scan limit)', async () => {
    await tree.write({ 'big.txt': Array.from({ length: 11 * 1024 }, (_, i) => `${String(i + 1).padStart(6, '0')}${'z'.repeat(1016)}`).join('\n') + '\n' })
    expect(seen(await read({ file_path: 'big.txt', offset: 11_000, limit: 2 })).content).toBe(
      `011000\t011000${'z'.repeat(1016)}\n 11001\t011001${'z'.repeat(1016)}\n[Showing lines 11000-11001; the file continues. Call read with offset=11002 to read more.]`.replace('011000\t', ' 11000\t'),
    )
    expect(seen(await read({ file_path: 'big.txt', offset: 11_264 })).content).toBe(` 11264\t011264${'z'.repeat(1016)}`)
    expect(seen(await read({ file_path: 'big.txt', offset: 11_265 }))).toEqual({
      isError: true,
      content: 'Line 11265 is past the end of big.txt, which has 11264 line(s). Use an offset from 1 to 11264.',
    })
  })

  it('pages a one-line file by characters', async () => {
    const line = Array.from({ length: 3000 }, (_, i) => `<${String(i).padStart(5, '0')}>`).join('')
    await tree.write({ 'min.js': line })
    const first = seen(await read({ file_path: 'min.js' })).content
    expect(first).toBe(
      `     1\t${line.slice(0, 2000)}… [line cut: ${line.length - 2000} more characters]\n` +
        `[1 line(s) longer than 2000 characters were cut. Line 1 shows characters 1-2000 of ${line.length}: call read with offset=1, char_offset=2001 to page through it.]`,
    )
    expect(seen(await read({ file_path: 'min.js', offset: 1, char_offset: 2001 })).content).toBe(
      `     1\t${line.slice(2000, 22000)}\n[Line 1, characters 2001-${line.length} of ${line.length}.]`,
    )
    expect(seen(await read({ file_path: 'min.js', char_offset: 1 })).content).toBe(
      `     1\t${line.slice(0, 20000)}\n[Line 1, characters 1-20000 of ${line.length}. Call read with offset=1, char_offset=20001 for the next characters.]`,
    )
  })

  it('F20: a char_offset past the end of its line, or on an empty line, says which char_offset works', async () => {
    await tree.write({ 'short.txt': 'hello\n\nworld' })
    expect(seen(await read({ file_path: 'short.txt', offset: 1, char_offset: 6 }))).toEqual({
      isError: true,
      content: 'char_offset 6 is past the end of line 1, which has 5 characters. Use a char_offset from 1 to 5.',
    })
    expect(seen(await read({ file_path: 'short.txt', offset: 2, char_offset: 1 }))).toEqual({
      isError: true,
      content: 'Line 2 is empty: there are no characters to page through. Call read with offset=2 and no char_offset.',
    })
    expect(seen(await read({ file_path: 'short.txt', offset: 3, char_offset: 5 })).content).toBe('     3\td\n[Line 3, characters 5-5 of 5.]')
  })

  it('cancellation', async () => {
    const run = runContext({ cwd: tree.root, signal: AbortSignal.abort() })
    expect(seen(await call(readTool, { file_path: 'src/a.ts' }, run))).toEqual({
      isError: true,
      content: 'Cancelled: the read of src/a.ts was aborted.',
    })
  })
})
