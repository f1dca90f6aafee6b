// What the model sees of an ACP prompt (golden text), how tool calls are titled and located for
// the editor, and the path spelling rule (property test: any path under a canonical directory is
// shown under the client's spelling of it).
import { readFileSync } from 'node:fs'
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { promptText, presentTool } from '../src/index.ts'
import { PathSpelling } from '../src/path-spelling.ts'

const golden = (name: string): string => readFileSync(new URL(`golden/${name}`, import.meta.url), 'utf8')

describe('prompt text', () => {
  it('renders text, resource links, embedded text and left-out binary content exactly', () => {
    const text = promptText([
      { type: 'text', text: 'Explain this function:' },
      { type: 'resource_link', name: 'parse.ts', uri: 'file:///home/me/proj/src/parse.ts' },
      { type: 'resource', resource: { uri: 'file:///home/me/proj/src/parse.ts#L10-12', text: 'function parse() {\n  return "</resource>"\n}' } },
      { type: 'resource', resource: { uri: 'file:///home/me/proj/logo.png', blob: 'iVBORw0KGgo=', mimeType: 'image/png' } },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
    ])
    expect(`${text}\n`).toBe(golden('prompt-text.txt'))
  })
})

describe('tool presentation', () => {
  const spelling = new PathSpelling([{ canonical: '/real/proj', spelled: '/home/me/proj' }, { canonical: '/real/lib', spelled: '/home/me/lib' }])
  it.each([
    ['read', { file_path: 'src/a.ts', offset: 12 }, { kind: 'read', title: 'Read src/a.ts', locations: [{ path: '/home/me/proj/src/a.ts', line: 12 }] }],
    ['edit', { file_path: '/real/lib/b.ts', old_string: 'x', new_string: 'y' }, { kind: 'edit', title: 'Edit /real/lib/b.ts', locations: [{ path: '/home/me/lib/b.ts' }] }],
    ['write', { file_path: 'new.md', content: '' }, { kind: 'edit', title: 'Write new.md', locations: [{ path: '/home/me/proj/new.md' }] }],
    ['grep', { pattern: 'TODO', path: 'src' }, { kind: 'search', title: 'Search "TODO" in src', locations: [{ path: '/home/me/proj/src' }] }],
    ['glob', { pattern: '**/*.ts' }, { kind: 'search', title: 'Find files **/*.ts', locations: [{ path: '/home/me/proj' }] }],
    ['bash', { command: 'npm test' }, { kind: 'execute', title: 'Run npm test', locations: [] }],
    ['run_code', { code: 'return 1' }, { kind: 'execute', title: 'Run JavaScript (run_code)', locations: [] }],
    ['subagent', { prompt: 'find the bug', description: 'Find the bug' }, { kind: 'think', title: 'Delegate: Find the bug', locations: [] }],
    ['web_fetch', { url: 'https://docs.python.org/3/' }, { kind: 'fetch', title: 'Fetch https://docs.python.org/3/', locations: [] }],
    ['todo_write', { todos: [] }, { kind: 'think', title: 'Update the plan', locations: [] }],
    ['mystery', {}, { kind: 'other', title: 'mystery', locations: [] }],
  ])('%s', (name, args, expected) => {
    expect(presentTool(name, JSON.stringify(args), spelling)).toEqual(expected)
  })

  it('titles malformed arguments without detail and cuts long ones', () => {
    expect(presentTool('read', '{not json', spelling)).toEqual({ kind: 'read', title: 'Read', locations: [] })
    expect(presentTool('bash', JSON.stringify({ command: 'x'.repeat(500) }), spelling).title).toHaveLength(120)
  })
})

describe('path spelling', () => {
  const segment = fc.stringMatching(/^[a-z0-9._-]{1,8}$/).filter((name) => name !== '.' && name !== '..')
  it('shows every path under a canonical directory under its spelled form, and leaves others alone', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 4 }), (rest) => {
        const spelling = new PathSpelling([{ canonical: '/real/proj', spelled: '/home/me/proj' }])
        const tail = rest.length === 0 ? '' : `/${rest.join('/')}`
        expect(spelling.show(`/real/proj${tail}`)).toBe(`/home/me/proj${tail}`)
        expect(spelling.show(`/real/project${tail}`)).toBe(`/real/project${tail}`)
        if (rest.length > 0) expect(spelling.show(rest.join('/'))).toBe(`/home/me/proj${tail}`)
      }),
    )
  })
})
