// Byte budget: broad files dropped whole before the most specific is cut on a UTF-8 boundary,
// visible notice, never above maxBytes, only represented changes committed.
import * as fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { layoutWithinBudget } from '../src/budget.ts'
import { renderBaseline, renderChangeBatch } from '../src/render.ts'
import { projectScope, userGlobalScope } from '../src/scope-key.ts'
import type { LoadedFile } from '../src/types.ts'

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
