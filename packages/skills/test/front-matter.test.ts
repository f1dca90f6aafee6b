// Front matter read as its author meant and at bounded cost: a one-line text field with an
// unquoted ": " — invalid YAML that many SKILL.md files written for other agents carry — loads as
// the text it says, and the file is named so its author can quote it; nothing else is guessed
// (property: a description is read as written, or the file is broken, never loaded with some
// other text). A block too long to parse cheaply is broken, and the parser never prints.
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { quotedLine, readSkillMeta, splitFrontMatter } from '../src/front-matter.ts'

const skill = (front: string): string => `---\nname: release\n${front}\n---\nBody.\n`

/** `count` lines of distinct short keys. */
const keys = (count: number): string => Array.from({ length: count }, (_, index) => `k${index}: v`).join('\n')

/** The problem of a `release` skill with this front matter after its name, or `loaded`. */
function broken(front: string): string {
  const meta = readSkillMeta(skill(front), 'release')
  return meta.ok ? 'loaded' : meta.problem
}

describe('unquoted colons in text fields', () => {
  it('reads a description and when_to_use holding ": " as plain text and names the fields', () => {
    const meta = readSkillMeta(skill("description: Cut a release: bump, changelog, tag.\nwhen_to_use: Use when: the user says 'ship it'\nallowed-tools: Bash(git tag:*)"), 'release')
    expect(meta).toMatchObject({ ok: true, meta: { description: 'Cut a release: bump, changelog, tag.', whenToUse: "Use when: the user says 'ship it'", allowedTools: ['Bash(git tag:*)'], quotedFields: ['description', 'when_to_use'] } })
    expect(quotedLine('skill', '/p/SKILL.md', ['description', 'when_to_use'])).toBe('skill /p/SKILL.md: unquoted ": " in description and when_to_use (invalid YAML); read as plain text; quote the value so stricter tools load it too')
  })

  it('reads a value ending in a colon, and keeps CRLF files working', () => {
    expect(readSkillMeta(skill('description: Steps:'), 'release')).toMatchObject({ ok: true, meta: { description: 'Steps:', quotedFields: ['description'] } })
    expect(readSkillMeta('---\r\nname: release\r\ndescription: Do it: now\r\n---\r\nBody.\r\n', 'release')).toMatchObject({ ok: true, meta: { description: 'Do it: now' }, body: 'Body.\r\n' })
  })

  it('leaves valid YAML alone: a quoted or colon-free description has no notice', () => {
    const quoted = readSkillMeta(skill('description: "Cut a release: bump."'), 'release')
    expect(quoted).toMatchObject({ ok: true, meta: { description: 'Cut a release: bump.' } })
    expect(quoted.ok && quoted.meta.quotedFields).toBeUndefined()
    expect(splitFrontMatter(skill('description: Plain text.\nmetadata:\n  a: b'))).toMatchObject({ ok: true, quoted: [] })
  })

  it('guesses nothing else: other fields, comments, indicators and folded lines stay broken, with where', () => {
    expect(broken('description: Fine.\nmodel: a: b')).toBe('bad YAML in front matter: Nested mappings are not allowed in compact mappings at line 3, column 8')
    expect(broken('description: Do it: now\nmodel: a: b')).toBe('bad YAML in front matter: Nested mappings are not allowed in compact mappings at line 3, column 8')
    expect(broken('description: Do it: now # really')).toMatch(/^bad YAML in front matter: .+ at line 2, column \d+$/)
    expect(broken('description: "a": b')).toMatch(/^bad YAML in front matter: /)
    expect(broken('description: First: line\n  goes on here')).toMatch(/^bad YAML in front matter: /)
  })

  it('parses no front matter longer than 16,384 characters (the YAML parser is quadratic in keys)', () => {
    expect(broken(`description: Fine.\n${keys(2000)}`)).toBe('front matter is longer than 16384 characters')
    expect(broken(`description: Fine.\n${keys(1000)}`)).toBe('loaded')
  })

  it('prints nothing itself: a YAML warning (an unknown tag) never reaches stderr with the raw file text', async () => {
    const warnings: unknown[] = []
    // Only the yaml package's: another warning of the worker is not this test's.
    const listen = (warning: Error): void => {
      if (warning.name === 'YAMLWarning') warnings.push(warning)
    }
    process.on('warning', listen)
    try {
      expect(readSkillMeta(skill('description: !weird \u001b]0;pwned\u0007 Tagged'), 'release')).toMatchObject({ ok: true, meta: { description: '\u001b]0;pwned\u0007 Tagged' } })
      // process.emitWarning emits on a later tick.
      await new Promise((resolve) => setImmediate(resolve))
    } finally {
      process.off('warning', listen)
    }
    expect(warnings).toEqual([])
  })

  it('reads any one-line description as written, or reports the file broken (property)', () => {
    const text = fc.stringMatching(/^[a-d][a-d :,.'()-]{0,40}$/)
    fc.assert(
      fc.property(text, (value) => {
        const meta = readSkillMeta(skill(`description: ${value}`), 'release')
        if (meta.ok) expect(meta.meta.description).toBe(value.trim())
        // The only refusals: a value YAML itself cannot end, like `a: -`, never a different text.
        else expect(meta.problem).toMatch(/^bad YAML in front matter: .+ at line \d+, column \d+$/)
      }),
      { numRuns: 1500 },
    )
  })
})
