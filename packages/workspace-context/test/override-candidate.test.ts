// AGENTS.override.md (issue 8 item 5): a default candidate ahead of AGENTS.md (Codex's local,
// usually git-ignored replacement of a directory's AGENTS.md). First wins per directory, so an
// override shadows its AGENTS.md, and `dsh context` says which file shadows which.
import { describe, expect, it } from 'vitest'
import { formatContextReport } from '../src/format-report.ts'
import { inspectContext } from '../src/inspect.ts'
import { changesOf, instructionMessages, REPO, textOf } from './support/fixtures.ts'
import { Rig } from './support/rig.ts'

const FILES = { ...REPO, '/repo/pkg/AGENTS.override.md': 'My local pkg rules.\n' }

describe('AGENTS.override.md', () => {
  it('replaces the directory AGENTS.md at its first touch', async () => {
    const rig = await new Rig({ files: FILES }).start()
    const agent = rig.agent('/repo')
    await rig.step(agent, { prompt: 'p' })
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    const last = instructionMessages(agent.session).at(-1)!
    expect(changesOf([last])).toEqual([{ action: 'set', path: 'pkg/AGENTS.override.md' }])
    expect(textOf(last)).toContain('My local pkg rules.')
    expect(textOf(last)).not.toContain('Pkg rules.')
  })

  it('switches back to AGENTS.md when the override is removed', async () => {
    const rig = await new Rig({ files: FILES }).start()
    const agent = rig.agent('/repo/pkg')
    await rig.step(agent, { prompt: 'p' })
    expect(changesOf(instructionMessages(agent.session)).map((c) => c.path)).toEqual(['~/.dsh/AGENTS.md', 'AGENTS.md', 'pkg/AGENTS.override.md'])
    rig.fs.remove('/repo/pkg/AGENTS.override.md')
    await rig.step(agent, { tools: [{ touched: ['/repo/pkg/a.ts'] }] })
    expect(textOf(instructionMessages(agent.session).at(-1)!)).toContain('The instructions previously loaded from pkg/AGENTS.override.md no longer apply')
  })

  it('dsh context reports the AGENTS.md it shadows, naming the override', async () => {
    const rig = new Rig({ files: FILES })
    const report = await inspectContext({ cwd: '/repo/pkg', config: { maxBytes: 65536, dshHome: '/home/user/.dsh' }, fs: rig.fs, environment: { env: {}, home: '/home/user' } })
    expect(report.candidates.find((c) => c.path === 'pkg/AGENTS.md')).toMatchObject({ state: 'shadowed', detail: 'by AGENTS.override.md, which takes precedence in this directory' })
    expect(formatContextReport(report)).toContain('    pkg/AGENTS.md: shadowed — by AGENTS.override.md, which takes precedence in this directory')
  })
})
