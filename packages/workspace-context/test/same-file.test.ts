// One file, one delivery (issue 8 item 1, decision D9): a file reached under two paths inside the
// trusted roots (a link, a hard link) is sent once; the second path is one line naming the first,
// and it falls back to its own content whenever the first is not in effect. Two copies with the
// same content are still two files.
import { describe, expect, it } from 'vitest'
import { inspectContext } from '../src/inspect.ts'
import { renderChangeBatch } from '../src/render.ts'
import { projectScope } from '../src/scope-key.ts'
import { instructionMessages, sourceOf, textOf } from './support/fixtures.ts'
import { Rig, type RigAgent } from './support/rig.ts'

const SKILL = `Skill rules: ${'s'.repeat(400)}\n`
const LINKED: Record<string, string> = {
  '/repo/.git/HEAD': 'ref',
  '/repo/.agents/AGENTS.md': SKILL,
  '/repo/.agents/skills/run/x.md': 'x',
  '/repo/pkg/a.ts': 'a',
}

async function started(files: Record<string, string>, link: (rig: Rig) => void, config = {}): Promise<{ rig: Rig; agent: RigAgent }> {
  const rig = new Rig({ files, config })
  link(rig)
  await rig.start()
  const agent = rig.agent('/repo')
  await rig.step(agent, { prompt: 'start' })
  return { rig, agent }
}

const rootLink = (rig: Rig) => rig.fs.symlink('/repo/AGENTS.md', '.agents/AGENTS.md')
const touch = (rig: Rig, agent: RigAgent, path: string) => rig.step(agent, { tools: [{ touched: [path] }] })
const allText = (agent: RigAgent) => instructionMessages(agent.session).map(textOf).join('\n')
const occurrences = (text: string, needle: string) => text.split(needle).length - 1

describe('one file, one delivery', () => {
  it('sends a file reached through a root link and its own path once; the second path is one line', async () => {
    const { rig, agent } = await started(LINKED, rootLink)
    await touch(rig, agent, '/repo/.agents/skills/run/x.md')
    const messages = instructionMessages(agent.session)
    expect(messages).toHaveLength(2)
    expect(occurrences(allText(agent), 'Skill rules:')).toBe(1)
    expect(textOf(messages[1]!)).toBe(
      '<system-reminder>\nSame file as AGENTS.md: .agents/AGENTS.md. Its instructions, already in this conversation under AGENTS.md, also apply to work under `.agents`; they are not repeated here.\n</system-reminder>',
    )
    expect(sourceOf(messages[1]!)?.changes).toEqual([expect.objectContaining({ action: 'set', path: '.agents/AGENTS.md', sameAs: { scope: sourceOf(messages[0]!)?.changes[0]?.scope, path: 'AGENTS.md' } })])
  })

  it('treats a hard link like a symbolic link', async () => {
    const { rig, agent } = await started(LINKED, (r) => r.fs.hardlink('/repo/AGENTS.md', '/repo/.agents/AGENTS.md'))
    await touch(rig, agent, '/repo/.agents/skills/run/x.md')
    expect(occurrences(allText(agent), 'Skill rules:')).toBe(1)
    expect(allText(agent)).toContain('Same file as AGENTS.md: .agents/AGENTS.md.')
  })

  it('keys files by their canonical target when the provider reports no node identity', async () => {
    const rig = new Rig({ files: LINKED })
    rootLink(rig)
    rig.fs.faults.omitNodeIds = true
    await rig.start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'start' })
    await touch(rig, agent, '/repo/.agents/skills/run/x.md')
    expect(occurrences(allText(agent), 'Skill rules:')).toBe(1)
  })

  it('sends two copies with equal content as two files (the seed rule)', async () => {
    const { rig, agent } = await started({ ...LINKED, '/repo/AGENTS.md': SKILL }, () => undefined)
    await touch(rig, agent, '/repo/.agents/skills/run/x.md')
    expect(occurrences(allText(agent), 'Skill rules:')).toBe(2)
    expect(allText(agent)).not.toContain('Same file as')
  })

  it('sends the content under the second path once the first no longer leads to it', async () => {
    const { rig, agent } = await started(LINKED, rootLink)
    await touch(rig, agent, '/repo/.agents/skills/run/x.md')
    rig.fs.remove('/repo/AGENTS.md')
    await touch(rig, agent, '/repo/.agents/skills/run/x.md')
    const last = textOf(instructionMessages(agent.session).at(-1)!)
    expect(last).toContain('Instructions removed: AGENTS.md')
    expect(last).toContain(`Updated instructions from: .agents/AGENTS.md\n\nThis file changed after it was loaded. The content below replaces everything previously loaded from it.\n\n${SKILL}`)
  })

  it('re-arms the second path when compaction removed the message that carries the content', async () => {
    const files = { '/repo/.git/HEAD': 'ref', '/repo/pkg/AGENTS.md': SKILL, '/repo/pkg/a.ts': 'a', '/repo/lib/b.ts': 'b' }
    const { rig, agent } = await started(files, (r) => r.fs.symlink('/repo/lib/AGENTS.md', '../pkg/AGENTS.md'))
    await touch(rig, agent, '/repo/pkg/a.ts')
    await touch(rig, agent, '/repo/lib/b.ts')
    expect(textOf(instructionMessages(agent.session).at(-1)!)).toContain('Same file as pkg/AGENTS.md: lib/AGENTS.md.')
    // The message with the content leaves the surface; the same-file line (and its step) stays visible.
    rig.compact(agent, 2)
    await touch(rig, agent, '/repo/lib/b.ts')
    expect(textOf(instructionMessages(agent.session).at(-1)!)).toContain(`Additional instructions from: lib/AGENTS.md\n\nThese instructions apply to work under \`lib\`.`)
    expect(textOf(instructionMessages(agent.session).at(-1)!)).toContain(SKILL)
  })

  it('never names a file the budget leaves out of the same message', async () => {
    const rig = new Rig({ files: { '/repo/.git/HEAD': 'ref', '/repo/pkg/AGENTS.md': SKILL, '/repo/pkg/AGENTS.local.md': 'Local rules.\n' }, config: { maxBytes: 920, maxFileShare: 1 } })
    rig.fs.symlink('/repo/AGENTS.md', 'pkg/AGENTS.md')
    await rig.start()
    const agent = rig.agent('/repo/pkg')
    await rig.step(agent, { prompt: 'start' })
    const [baseline] = instructionMessages(agent.session)
    // The root (broadest) is dropped; pkg/AGENTS.md would need the content itself, which does not fit either.
    expect(textOf(baseline!)).toContain('omitted AGENTS.md (414 bytes), pkg/AGENTS.md (414 bytes)')
    expect(textOf(baseline!)).not.toContain('Same file as')
    expect(sourceOf(baseline!)?.changes.map((c) => c.path)).toEqual(['pkg/AGENTS.local.md'])
  })

  it('carries the content itself when the file it shares is not in effect', () => {
    const root = projectScope('.', 'base')
    const pkg = projectScope('pkg', 'base')
    const { text, changes } = renderChangeBatch([{ action: 'set', scope: pkg, path: 'pkg/AGENTS.md', content: 'Shared.', digest: 'd', sameAs: { scope: root, path: 'AGENTS.md', inEffect: false } }], 65536)
    expect(text).toContain('Additional instructions from: pkg/AGENTS.md\n\nThese instructions apply to work under `pkg`.')
    expect(text).toContain('Shared.')
    expect(changes).toEqual([{ action: 'set', scope: pkg.key, path: 'pkg/AGENTS.md', digest: 'd' }])
    const line = renderChangeBatch([{ action: 'set', scope: pkg, path: 'pkg/AGENTS.md', content: 'Shared.', digest: 'd', sameAs: { scope: root, path: 'AGENTS.md', inEffect: true } }], 65536)
    expect(line.text).not.toContain('Shared.')
    expect(line.changes).toEqual([{ action: 'set', scope: pkg.key, path: 'pkg/AGENTS.md', digest: 'd', sameAs: { scope: root.key, path: 'AGENTS.md' } }])
  })

  it('dsh context names the link target and the same file', async () => {
    const rig = new Rig({ files: { ...LINKED, '/repo/.agents/CLAUDE.md': 'c' } })
    rootLink(rig)
    const report = await inspectContext({ cwd: '/repo/.agents', config: { maxBytes: 65536, dshHome: '/home/user/.dsh' }, fs: rig.fs, environment: { env: {}, home: '/home/user' } })
    const byPath = new Map(report.candidates.map((c) => [c.path, c]))
    expect(byPath.get('AGENTS.md')).toMatchObject({ state: 'loaded', detail: 'link to /repo/.agents/AGENTS.md' })
    expect(byPath.get('.agents/AGENTS.md')).toMatchObject({ state: 'same-file', detail: 'the same file as AGENTS.md (sent once)' })
    expect(occurrences(report.baseline.text, 'Skill rules:')).toBe(1)
  })
})
