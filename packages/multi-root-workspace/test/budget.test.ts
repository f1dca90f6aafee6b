// The one budget shared by every additional root: never exceeded whatever the number of roots,
// shallow before deep, a cut file is sent whole once it fits, and the notice is not repeated for
// an unchanged file. Property tests pin the allocation rules on random sections.
import * as fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { escapeFrameText, frames } from '@dsh/workspace-context'
import { RootRegistry } from '../src/index.ts'
import { allocate, prefixWithin, sectionBytes } from '../src/shared-budget.ts'
import { multiRootRig, pluginMessages, read, type Rig } from './support/rig.ts'

let rig: Rig
afterEach(async () => rig?.dispose())

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8')
const names = ['repo-b', 'repo-c', 'repo-d'] as const

/** Bytes the instruction files of `text` take: each shown section's heading, blank line and kept text. */
function usedBytes(text: string, files: readonly { path: string; content: string }[]): number {
  let used = 0
  for (const file of files) {
    const heading = escapeFrameText(frames.additionalSection(file.path, file.path.slice(0, file.path.lastIndexOf('/'))))
    if (!text.includes(heading)) continue
    const cut = new RegExp(`truncated ${file.path.replaceAll('.', '\\.')} to (\\d+) of`).exec(text)
    used += sectionBytes(heading, cut === null ? file.content : 'x'.repeat(Number(cut[1])))
  }
  return used
}

describe('the shared budget', () => {
  for (const maxBytes of [700, 1500, 2600, 4000, 20_000]) {
    it(`three roots with ${maxBytes} bytes: the files shown never take more`, async () => {
      const files = names.map((name, index) => ({ name, content: String.fromCharCode(97 + index).repeat(1000) }))
      rig = await multiRootRig({ 'repo-a/.git/': null, ...Object.fromEntries(files.map((file) => [`${file.name}/AGENTS.md`, file.content])) }, { maxBytes })
      const registry = new RootRegistry({ dshHome: rig.tree.path('home') })
      for (const name of names) await registry.add(rig.tree.path('repo-a'), rig.tree.path(name))
      const agent = await rig.start('repo-a', { responses: [{ text: 'done' }] })
      await agent.prompt('go')
      const text = pluginMessages(agent.session)[0]?.text ?? ''
      const shown = files.map((file) => ({ path: rig.tree.path(`${file.name}/AGENTS.md`), content: file.content }))
      const used = usedBytes(text, shown)
      expect(used).toBeLessThanOrEqual(maxBytes)
      expect(used).toBeGreaterThan(Math.min(maxBytes, 3 * 1250) - 1300)
      const everything = shown.every((file) => text.includes(file.content))
      expect(text.includes(`Workspace instruction budget of ${maxBytes} bytes:`)).toBe(!everything)
    })
  }

  it('shallow before deep within one step; what was left out comes whole at the next step where it fits', async () => {
    rig = await multiRootRig({ 'repo-a/.git/': null, 'repo-b/src/AGENTS.md': 'S'.repeat(600), 'repo-b/src/deep/AGENTS.md': 'D'.repeat(600), 'repo-b/src/deep/x.ts': 'x' }, { maxBytes: 1000 })
    await new RootRegistry({ dshHome: rig.tree.path('home') }).add(rig.tree.path('repo-a'), rig.tree.path('repo-b'))
    const agent = await rig.start('repo-a', { responses: [read(rig.tree.path('repo-b/src/deep/x.ts')), { text: 'one' }, { text: 'two' }] })
    await agent.prompt('one')
    await agent.prompt('two')
    const [, touched, retried] = pluginMessages(agent.session)
    expect(touched?.text).toContain('S'.repeat(600))
    expect(touched?.text).toContain(`Workspace instruction budget of 1000 bytes: omitted ${rig.tree.path('repo-b/src/deep/AGENTS.md')} (600 bytes).`)
    expect(touched?.text).not.toContain('DDDD')
    expect(retried).toMatchObject({ turn: 2, step: 1 })
    expect(retried?.text).toContain('D'.repeat(600))
    expect(retried?.text).not.toContain('budget')
  })

  it('a file cut by the budget is not sent again while it is unchanged and still does not fit', async () => {
    rig = await multiRootRig({ 'repo-a/.git/': null, 'repo-b/AGENTS.md': 'T'.repeat(1000) }, { maxBytes: 500 })
    await new RootRegistry({ dshHome: rig.tree.path('home') }).add(rig.tree.path('repo-a'), rig.tree.path('repo-b'))
    const agent = await rig.start('repo-a', { responses: [{ text: 'one' }, { text: 'two' }] })
    await agent.prompt('one')
    const [first] = pluginMessages(agent.session)
    expect(first?.text).toMatch(new RegExp(`truncated ${rig.tree.path('repo-b/AGENTS.md')} to \\d+ of 1000 bytes`))
    expect(first?.changes.at(-1)).toMatchObject({ truncated: true })
    await agent.prompt('two')
    expect(pluginMessages(agent.session)).toHaveLength(1)
  })

  it('an unchanged file that was cut is sent whole at a later step where it fits', async () => {
    rig = await multiRootRig({ 'repo-a/.git/': null, 'repo-b/AGENTS.md': 'B'.repeat(600), 'repo-c/AGENTS.md': 'C'.repeat(600) }, { maxBytes: 1400 })
    const registry = new RootRegistry({ dshHome: rig.tree.path('home') })
    for (const name of ['repo-b', 'repo-c']) await registry.add(rig.tree.path('repo-a'), rig.tree.path(name))
    const agent = await rig.start('repo-a', { responses: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] })
    await agent.prompt('one')
    const [first] = pluginMessages(agent.session)
    expect(first?.text).toContain('B'.repeat(600))
    expect(first?.text).toMatch(new RegExp(`truncated ${rig.tree.path('repo-c/AGENTS.md')} to \\d+ of 600 bytes`))
    expect(first?.text).not.toContain('C'.repeat(600))
    await agent.prompt('two')
    const second = pluginMessages(agent.session).at(-1)
    expect(second?.turn).toBe(2)
    expect(second?.text).toContain(`Additional instructions from: ${rig.tree.path('repo-c/AGENTS.md')}`)
    expect(second?.text).toContain('C'.repeat(600))
    expect(second?.text).not.toContain('BBBB')
    expect(second?.changes).toEqual([expect.objectContaining({ action: 'replace', path: rig.tree.path('repo-c/AGENTS.md') })])
    expect(second?.changes[0]).not.toHaveProperty('truncated')
    await agent.prompt('three')
    expect(pluginMessages(agent.session)).toHaveLength(2)
  })

  it('a cut file that changes is sent again, whole once it fits', async () => {
    rig = await multiRootRig({ 'repo-a/.git/': null, 'repo-b/AGENTS.md': 'T'.repeat(2000) }, { maxBytes: 1200 })
    await new RootRegistry({ dshHome: rig.tree.path('home') }).add(rig.tree.path('repo-a'), rig.tree.path('repo-b'))
    const agent = await rig.start('repo-a', { responses: [{ text: 'one' }, { text: 'two' }] })
    await agent.prompt('one')
    expect(pluginMessages(agent.session)[0]?.text).toContain('truncated')
    // The file shrinks: it changed, so the new text goes out whole.
    const { writeFileSync } = await import('node:fs')
    writeFileSync(rig.tree.path('repo-b/AGENTS.md'), 'short now')
    await agent.prompt('two')
    const last = pluginMessages(agent.session).at(-1)
    expect(last?.text).toContain(`Updated instructions from: ${rig.tree.path('repo-b/AGENTS.md')}`)
    expect(last?.changes.at(-1)).not.toHaveProperty('truncated')
  })

  it('a non-positive budget sends no instruction files, only the note', async () => {
    rig = await multiRootRig({ 'repo-a/.git/': null, 'repo-b/AGENTS.md': 'B rule.' }, { maxBytes: 0 })
    await new RootRegistry({ dshHome: rig.tree.path('home') }).add(rig.tree.path('repo-a'), rig.tree.path('repo-b'))
    const agent = await rig.start('repo-a', { responses: [{ text: 'one' }] })
    await agent.prompt('one')
    const text = pluginMessages(agent.session)[0]?.text ?? ''
    expect(text).toContain('Additional workspace roots:')
    expect(text).not.toContain('B rule.')
  })
})

describe('allocation (property)', () => {
  const section = fc.record({ heading: fc.string({ maxLength: 40 }), content: fc.string({ unit: 'binary', maxLength: 300 }), wholeOnly: fc.boolean() })

  it('never exceeds the budget, cuts at most once, keeps prefixes, and keeps whatever fits in order', () => {
    fc.assert(
      fc.property(fc.array(section, { maxLength: 12 }), fc.integer({ min: -10, max: 3000 }), (sections, maxBytes) => {
        const decisions = allocate(sections, maxBytes, escapeFrameText)
        let left = Math.max(0, maxBytes)
        let cuts = 0
        sections.forEach((item, index) => {
          const decision = decisions[index]
          const whole = sectionBytes(item.heading, escapeFrameText(item.content))
          if (decision?.kind === 'whole') {
            expect(whole).toBeLessThanOrEqual(left)
            left -= whole
          } else if (decision?.kind === 'cut') {
            cuts += 1
            expect(item.wholeOnly).toBe(false)
            expect(item.content.startsWith(decision.content)).toBe(true)
            expect(sectionBytes(item.heading, escapeFrameText(decision.content))).toBeLessThanOrEqual(left)
            left = 0
          } else {
            expect(whole).toBeGreaterThan(left)
          }
        })
        expect(cuts).toBeLessThanOrEqual(1)
      }),
    )
  })

  it('prefixWithin never splits a character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), fc.integer({ min: 0, max: 400 }), (text, limit) => {
        const prefix = prefixWithin(text, limit)
        expect(text.startsWith(prefix)).toBe(true)
        expect(bytes(prefix)).toBeLessThanOrEqual(Math.max(limit, 0))
        expect(prefix.includes('\uFFFD') && !text.includes('\uFFFD')).toBe(false)
      }),
    )
  })
})
