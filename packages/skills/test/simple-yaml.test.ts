// The front matter fast path means exactly what the yaml package reads (property), and hands
// everything it does not fully understand to it.
import * as fc from 'fast-check'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { simpleFrontMatter } from '../src/simple-yaml.ts'

const key = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,12}$/)
const value = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('true', 'false', 'null', '~', '1', '0x1f', '.inf', 'a: b', 'x #y', '"q"', "'q'", '[a]', '{a: 1}', '|', '>', '- a', 'Bash(git add:*), Read', 'yes', 'no', 'on', '2026-01-01'))

describe('simple front matter', () => {
  it('agrees with the yaml package whenever it answers', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(key, value), { maxLength: 6 }), fc.boolean(), (pairs, crlf) => {
        const text = pairs.map(([k, v]) => `${k}: ${v}`).join(crlf ? '\r\n' : '\n')
        const fast = simpleFrontMatter(text)
        if (fast === undefined) return
        expect(fast).toEqual(parse(text) ?? {})
      }),
      { numRuns: 2000 },
    )
  })

  it('answers the common shape and defers the rest', () => {
    expect(simpleFrontMatter('name: deploy\ndescription: Deploy the app, then check it.\ndisable-model-invocation: true\n')).toEqual({ name: 'deploy', description: 'Deploy the app, then check it.', 'disable-model-invocation': true })
    for (const text of ['name: a\nname: b', 'tools:\n  - a', 'd: "quoted"', 'n: 12', 'd: a # c', 'd: |\n  x', '# comment\nname: a']) expect(simpleFrontMatter(text)).toBeUndefined()
  })
})
