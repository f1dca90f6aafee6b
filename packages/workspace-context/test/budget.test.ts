// Byte budget: broad files dropped whole before the most specific is cut on a UTF-8 boundary,
// visible notice, never above maxBytes, only represented changes committed; decision D7 (every
// file first cut to its share of the budget when the set does not fit).
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { layoutWithinBudget } from '../src/budget.ts'
import { renderBaseline, renderChangeBatch } from '../src/render.ts'
import { projectScope, userGlobalScope } from '../src/scope-key.ts'
import type { LoadedFile } from '../src/types.ts'
import { changesOf, instructionMessages } from './support/fixtures.ts'
import { Rig } from './support/rig.ts'

const bytes = (text: string): number => Buffer.byteLength(text)
const files = (...contents: string[]): LoadedFile[] => contents.map((content, index) => ({ scope: index === 0 ? userGlobalScope() : projectScope(index === 1 ? '.' : Array.from({ length: index - 1 }, (_, i) => `d${i}`).join('/'), 'base'), path: `f${index}.md`, content, digest: `d${index}` }))

describe('byte budget', () => {
  it('returns everything when it fits', () => {
    const rendered = renderBaseline(files('a', 'b', 'c'), 10_000)
    expect(rendered.changes.map((c) => c.path)).toEqual(['f0.md', 'f1.md', 'f2.md'])
    expect(rendered.text).not.toContain('Workspace instruction budget')
  })

  it('drops a parent file while keeping a specific child intact when the child fits', () => {
    const rendered = renderBaseline(files('g'.repeat(300), 'r'.repeat(300), 'child'), 700)
    expect(rendered.changes.map((c) => c.path)).toEqual(['f2.md'])
    expect(rendered.omitted.map((f) => f.path)).toEqual(['f0.md', 'f1.md'])
    expect(rendered.text).toContain('child')
    expect(rendered.text).toContain('omitted f0.md (300 bytes), f1.md (300 bytes)')
  })

  it('keeps the longest most-specific suffix that fits', () => {
    const rendered = renderBaseline(files('g'.repeat(2000), 'r'.repeat(10), 'child'), 800)
    expect(rendered.changes.map((c) => c.path)).toEqual(['f1.md', 'f2.md'])
  })

  it('truncates a single oversized file to the largest slice that fits, marked truncated', () => {
    const rendered = renderBaseline(files('x'.repeat(5000)), 1000)
    expect(bytes(rendered.text)).toBeLessThanOrEqual(1000)
    expect(bytes(rendered.text)).toBeGreaterThan(990)
    expect(rendered.changes).toEqual([{ action: 'set', scope: 'user-global', path: 'f0.md', digest: 'd0', truncated: true }])
    expect(rendered.text).toMatch(/truncated f0\.md to \d+ of 5000 bytes/u)
  })

  it('never splits a multibyte code point when truncating', () => {
    const rendered = renderBaseline(files('€😀'.repeat(1000)), 1200)
    const inner = rendered.text.split('Instructions from: f0.md\n\n')[1]?.replace('\n</system-reminder>', '') ?? ''
    expect(inner.length).toBeGreaterThan(0)
    expect(Buffer.from(inner, 'utf8').toString('utf8')).toBe(inner)
    expect(/[\ud800-\udbff](?![\udc00-\udfff])/u.test(inner)).toBe(false)
  })

  it('omits all text when the budget is disabled', () => {
    for (const max of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) expect(renderBaseline(files('a'), max).text).toBe('')
  })

  it('falls back to the notice alone when no content byte fits, committing nothing', () => {
    const rendered = renderBaseline(files('x'.repeat(500)), 200)
    expect(rendered.changes).toEqual([])
    expect(rendered.text).toContain('Workspace instruction budget of 200 bytes: omitted f0.md (500 bytes)')
    expect(bytes(rendered.text)).toBeLessThanOrEqual(200)
  })

  it('renders nothing when even the notice cannot fit', () => {
    expect(renderBaseline(files('x'.repeat(500)), 20)).toMatchObject({ text: '', changes: [] })
  })

  it('represents a genuinely empty file when its heading fits', () => {
    const rendered = renderChangeBatch([{ action: 'set', scope: projectScope('a', 'base'), path: 'a/AGENTS.md', content: '', digest: 'e' }], 10_000)
    expect(rendered.changes).toHaveLength(1)
  })

  it.each(['set', 'replace'] as const)('does not commit a %s whose heading would survive with zero content bytes', (action) => {
    const item = { action, scope: projectScope('a', 'base'), path: 'a/AGENTS.md', content: 'x'.repeat(1000), digest: 'e' }
    const needed = bytes(renderChangeBatch([{ ...item, content: '' }], 100_000).text)
    const rendered = renderChangeBatch([item], needed + 5)
    expect(rendered.changes).toEqual([])
    expect(rendered.text).toBe('')
  })

  it('keeps removals while dropping content, and retries omitted changes later (not committed)', () => {
    const rendered = renderChangeBatch(
      [
        { action: 'set', scope: projectScope('a', 'base'), path: 'a/AGENTS.md', content: 'x'.repeat(900), digest: 'e' },
        { action: 'remove', scope: projectScope('b', 'base'), path: 'b/AGENTS.md' },
        { action: 'set', scope: projectScope('c/d', 'base'), path: 'c/d/AGENTS.md', content: 'y', digest: 'f' },
      ],
      700,
    )
    expect(rendered.changes.map((c) => c.path)).toEqual(['b/AGENTS.md', 'c/d/AGENTS.md'])
    expect(rendered.omitted.map((c) => c.path)).toEqual(['a/AGENTS.md'])
  })

  it('holds back a change a one-byte budget cannot represent', () => {
    expect(renderChangeBatch([{ action: 'set', scope: projectScope('a', 'base'), path: 'a/A.md', content: 'x', digest: 'e' }], 1)).toMatchObject({ text: '', changes: [] })
  })

  it('property: never above maxBytes, valid UTF-8, most specific retained first, whole files before truncation', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 300 }), { minLength: 1, maxLength: 5 }), fc.integer({ min: 1, max: 3000 }), (contents, maxBytes) => {
        const list = files(...contents)
        const rendered = renderBaseline(list, maxBytes)
        expect(bytes(rendered.text)).toBeLessThanOrEqual(maxBytes)
        expect(Buffer.from(rendered.text, 'utf8').toString('utf8')).toBe(rendered.text)
        const kept = rendered.changes.map((c) => c.path)
        // The retained set is a suffix of the specificity order (broad ones go first).
        expect(kept).toEqual(list.slice(list.length - kept.length).map((f) => f.path))
        // A truncated file is the most specific one, and only when nothing broader is kept.
        const truncated = rendered.changes.filter((c) => c.truncated === true)
        if (truncated.length > 0) expect(kept).toEqual([list.at(-1)?.path])
      }),
      { numRuns: 300 },
    )
  })


  it('layout engine reports what it kept and cut', () => {
    const layout = layoutWithinBudget([{ key: 'a', path: 'a', heading: 'H', content: 'z'.repeat(1000), rank: 1 }], 300)
    expect(layout.truncated).toBe('a')
    expect(layout.keptBytes).toBeGreaterThan(0)
    expect(layout.retained.has('a')).toBe(true)
  })
})

// Decision D7: no single file starves the chain. The sizes are those of the README example (a
// vendored 81 KB skill file in the chain next to a 2 KB user file, a 6 KB root file and an 8 KB
// package file, under the CLI's 64 KiB budget).
describe('maxFileShare (D7)', () => {
  const KB = 1024
  const chain = (): LoadedFile[] => [
    { scope: userGlobalScope(), path: '~/.dsh/AGENTS.md', content: 'g'.repeat(2 * KB), digest: 'g' },
    { scope: projectScope('.', 'base'), path: 'AGENTS.md', content: 'r'.repeat(6 * KB), digest: 'r' },
    { scope: projectScope('packages/app', 'base'), path: 'packages/app/AGENTS.md', content: 'p'.repeat(8 * KB), digest: 'p' },
    { scope: projectScope('packages/app/.agents/skills/lint', 'base'), path: 'packages/app/.agents/skills/lint/AGENTS.md', content: 's'.repeat(81 * KB), digest: 's' },
  ]

  it('cuts the one oversized file to its share and keeps the whole chain', () => {
    const rendered = renderBaseline(chain(), 65536, { maxFileShare: 0.5 })
    expect(rendered.changes.map((c) => [c.path, c.truncated === true])).toEqual([
      ['~/.dsh/AGENTS.md', false],
      ['AGENTS.md', false],
      ['packages/app/AGENTS.md', false],
      ['packages/app/.agents/skills/lint/AGENTS.md', true],
    ])
    expect(rendered.cuts?.get(projectScope('packages/app/.agents/skills/lint', 'base').key)).toBe(32768)
    expect(rendered.text).toContain('Workspace instruction budget of 65536 bytes: truncated packages/app/.agents/skills/lint/AGENTS.md to 32768 of 82944 bytes.')
    expect(bytes(rendered.text)).toBeLessThanOrEqual(65536)
  })

  it('maxFileShare 1 is the seed rule exactly: the broad files are dropped and the big one is cut last', () => {
    const rendered = renderBaseline(chain(), 65536, { maxFileShare: 1 })
    expect(rendered).toEqual(renderBaseline(chain(), 65536))
    expect(rendered.changes.map((c) => c.path)).toEqual(['packages/app/.agents/skills/lint/AGENTS.md'])
    expect(rendered.omitted.map((f) => f.path)).toEqual(['~/.dsh/AGENTS.md', 'AGENTS.md', 'packages/app/AGENTS.md'])
  })

  it('never cuts a chain that fits, however large one file is', () => {
    const fitting = chain().map((file) => (file.path.includes('skills') ? { ...file, content: 's'.repeat(40 * KB) } : file))
    const rendered = renderBaseline(fitting, 65536, { maxFileShare: 0.25 })
    expect(rendered.changes.some((c) => c.truncated === true)).toBe(false)
    expect(rendered.text).not.toContain('Workspace instruction budget')
  })

  it('when the cut chain still does not fit, applies the seed rule to it (broadest dropped first), keeping the cuts', () => {
    const rendered = renderBaseline(chain(), 30 * KB, { maxFileShare: 0.5 })
    // 15 KiB share: the skill file is cut to 15360 bytes; 2+6+8+15 KiB plus text is over 30 KiB, so the user file goes.
    expect(rendered.changes.map((c) => c.path)).toEqual(['AGENTS.md', 'packages/app/AGENTS.md', 'packages/app/.agents/skills/lint/AGENTS.md'])
    expect(rendered.text).toContain('omitted ~/.dsh/AGENTS.md (2048 bytes); truncated packages/app/.agents/skills/lint/AGENTS.md to 15360 of 82944 bytes.')
  })

  it('cuts several oversized files, each to its share, and names every cut', () => {
    const two = [
      { scope: projectScope('.', 'base'), path: 'AGENTS.md', content: 'r'.repeat(30 * KB), digest: 'r' },
      { scope: projectScope('a', 'base'), path: 'a/AGENTS.md', content: 'a'.repeat(30 * KB), digest: 'a' },
      { scope: projectScope('a/b', 'base'), path: 'a/b/AGENTS.md', content: 'b'.repeat(2 * KB), digest: 'b' },
    ]
    const rendered = renderBaseline(two, 40 * KB, { maxFileShare: 0.25 })
    expect(rendered.changes.map((c) => [c.path, c.truncated === true])).toEqual([
      ['AGENTS.md', true],
      ['a/AGENTS.md', true],
      ['a/b/AGENTS.md', false],
    ])
    expect(rendered.text).toContain('truncated AGENTS.md to 10240 of 30720 bytes, a/AGENTS.md to 10240 of 30720 bytes.')
  })

  it('applies to change batches alike', () => {
    const items = chain().slice(2).map((file) => ({ action: 'set' as const, ...file }))
    const rendered = renderChangeBatch(items, 65536, { maxFileShare: 0.5 })
    expect(rendered.changes.map((c) => [c.path, c.truncated === true])).toEqual([
      ['packages/app/AGENTS.md', false],
      ['packages/app/.agents/skills/lint/AGENTS.md', true],
    ])
    // Without share cuts the two do not fit together; the newly reached ancestor goes first (item 3).
    expect(renderChangeBatch(items, 65536).changes.map((c) => c.path)).toEqual(['packages/app/AGENTS.md'])
  })

  it('property: share cuts never exceed the budget and only happen when the whole set does not fit', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 5 }), fc.integer({ min: 200, max: 6000 }), fc.double({ min: 0.05, max: 1, noNaN: true }), (sizes, maxBytes, share) => {
        const list = files(...sizes.map((n, i) => String.fromCharCode(97 + i).repeat(n)))
        const rendered = renderBaseline(list, maxBytes, { maxFileShare: share })
        expect(bytes(rendered.text)).toBeLessThanOrEqual(maxBytes)
        const whole = renderBaseline(list, Number.MAX_SAFE_INTEGER)
        if (bytes(whole.text) <= maxBytes) expect(rendered.text).toBe(whole.text)
        // A cut file keeps at most its share of the budget.
        for (const change of rendered.changes.filter((c) => c.truncated === true)) expect(rendered.cuts?.get(change.scope)).toBeLessThanOrEqual(Math.floor(share * maxBytes))
      }),
      { numRuns: 300 },
    )
  })
})


describe('maxFileShare through the plugin', () => {
  it('defaults to 0.5: a vendored skill file in the cwd chain no longer starves the session baseline', async () => {
    const skill = 'repo/packages/app/.agents/skills/lint'
    const tree = {
      '/repo/.git/HEAD': 'ref',
      '/home/user/.dsh/AGENTS.md': 'g'.repeat(2048),
      '/repo/AGENTS.md': 'r'.repeat(6144),
      '/repo/packages/app/AGENTS.md': 'p'.repeat(8192),
      [`/${skill}/AGENTS.md`]: 's'.repeat(82944),
    }
    const paths = async (config: Record<string, unknown>) => {
      const rig = await new Rig({ files: tree, config }).start()
      const agent = rig.agent(`/${skill}`)
      await rig.step(agent, { prompt: 'p' })
      return changesOf(instructionMessages(agent.session)).map((c) => c.path)
    }
    expect(await paths({})).toEqual(['~/.dsh/AGENTS.md', 'AGENTS.md', 'packages/app/AGENTS.md', 'packages/app/.agents/skills/lint/AGENTS.md'])
    expect(await paths({ maxFileShare: 1 })).toEqual(['packages/app/.agents/skills/lint/AGENTS.md'])
  })
})
