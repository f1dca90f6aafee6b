// Empty instruction files (issue 8 item 9): a file that is empty or only whitespace sends no frame
// at all; its state is still known, so a later edit arrives as an addition (not an update), a
// loaded file that becomes empty no longer applies, and an unchanged empty file is not read again.
import { describe, expect, it } from 'vitest'
import { changesOf, instructionMessages, REPO, textOf } from './support/fixtures.ts'
import { Rig } from './support/rig.ts'

const touch = (rig: Rig, agent: ReturnType<Rig['agent']>) => rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })

describe('empty instruction files', () => {
  it('leaves an empty baseline file out of the baseline', async () => {
    const rig = await new Rig({ files: { ...REPO, '/repo/AGENTS.md': '' } }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    const [baseline] = instructionMessages(agent.session)
    expect(changesOf([baseline!]).map((c) => c.path)).toEqual(['~/.dsh/AGENTS.md'])
    expect(textOf(baseline!)).not.toContain('Instructions from: AGENTS.md')
  })

  it('sends no frame at all for a nested file that is only whitespace, and nothing for a baseline of empty files', async () => {
    const rig = await new Rig({ files: { '/repo/.git/HEAD': 'x', '/repo/AGENTS.md': '', '/repo/pkg/AGENTS.md': ' \n\t\n', '/repo/pkg/a.ts': 'a' } }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    await touch(rig, agent)
    expect(instructionMessages(agent.session)).toEqual([])
  })

  it('sends a later edit of an empty file as an addition', async () => {
    const rig = await new Rig({ files: { ...REPO, '/repo/pkg/AGENTS.md': '' } }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    await touch(rig, agent)
    const before = instructionMessages(agent.session).length
    rig.fs.write('/repo/pkg/AGENTS.md', 'Now with rules.\n')
    await touch(rig, agent)
    const added = instructionMessages(agent.session).slice(before)
    expect(changesOf(added)).toEqual([{ action: 'set', path: 'pkg/AGENTS.md' }])
    expect(textOf(added[0]!)).toContain('Additional instructions from: pkg/AGENTS.md')
  })

  it('says a loaded file that became empty no longer applies', async () => {
    const rig = await new Rig({ files: REPO }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    await touch(rig, agent)
    rig.fs.write('/repo/pkg/AGENTS.md', '\n')
    await touch(rig, agent)
    expect(textOf(instructionMessages(agent.session).at(-1)!)).toBe('<system-reminder>\nInstructions removed: pkg/AGENTS.md\n\nThe previously loaded instructions from this file no longer apply.\n</system-reminder>')
  })

  it('does not read an unchanged empty file again', async () => {
    const rig = await new Rig({ files: { ...REPO, '/repo/pkg/AGENTS.md': '' }, timestamps: true }).start()
    const agent = rig.agent('/repo')
    rig.clock += 1000
    await rig.step(agent, { prompt: 'p' })
    await touch(rig, agent)
    const reads = rig.fs.calls.filter((c) => c.method === 'streamText' && c.path === '/repo/pkg/AGENTS.md').length
    rig.clock += 1000
    await touch(rig, agent)
    await touch(rig, agent)
    expect(rig.fs.calls.filter((c) => c.method === 'streamText' && c.path === '/repo/pkg/AGENTS.md')).toHaveLength(reads)
  })
})
